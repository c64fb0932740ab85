import DiagModel
import DiagOutput
import DiagPatterns

/// How `diag patterns` writes patterns: a table with a sample line under each, or JSON.
struct PatternTable {
    var zone: DisplayZone

    mutating func writeText(_ patterns: [MinedPattern<RecordPatternSummary>], overflow: Int, to sink: OutputSink) {
        let total = patterns.reduce(0) { $0 + $1.count } + overflow
        sink.write("     count  share  first                    last                     err+fault  processes                  pattern (ID)\n")
        for pattern in patterns {
            let summary = pattern.summary
            let share = total == 0 ? 0 : 100 * Double(pattern.count) / Double(total)
            var line = pad(String(pattern.count), 10, right: true) + "  " + pad(formatPercent(share), 5, right: true) + "  "
            line += pad(time(summary.first), 23) + "  " + pad(time(summary.last), 23) + "  "
            line += pad(String(summary.problems), 9, right: true) + "  " + pad(Self.processList(summary), 25) + "  "
            line += pattern.text + "  (" + pattern.id + ")\n"
            line += "            e.g. " + Self.oneLine(summary.sample ?? "") + "\n"
            sink.write(line)
        }
        var footer = "\(total) record\(total == 1 ? "" : "s"), \(patterns.count) pattern\(patterns.count == 1 ? "" : "s")"
        if overflow > 0 { footer += "; \(overflow) record\(overflow == 1 ? "" : "s") beyond the cap of patterns, in none" }
        sink.write(footer + "\n")
    }

    mutating func writeJSON(_ patterns: [MinedPattern<RecordPatternSummary>], array: Bool, to sink: OutputSink) {
        if array { sink.write("[") }
        for (index, pattern) in patterns.enumerated() {
            var writer = JSONWriter()
            appendObject(id: pattern.id, text: pattern.text, summary: pattern.summary, to: &writer)
            if array, index > 0 { sink.write(",\n") }
            sink.write(writer.bytes)
            if !array { sink.write("\n") }
        }
        sink.write(array ? "]\n" : "")
    }

    /// One pattern as `diag patterns --style json` and `diag diff --style json` write it.
    mutating func appendObject(id: String, text: String, summary: RecordPatternSummary, to writer: inout JSONWriter, extra: [(String, JSONValue)] = []) {
        var object: [String: JSONValue] = [
            "patternID": .string(id), "pattern": .string(text), "count": .int(Int64(summary.count)),
            "sample": summary.sample.map(JSONValue.string) ?? .null,
            "processes": .array(RecordPatternSummary.ranked(summary.processes).map { .string($0.name) }),
            "subsystems": .array(RecordPatternSummary.ranked(summary.subsystems).map { .string($0.name) }),
        ]
        if summary.count > 0 {
            object["first"] = .string(Timestamp.format(nanoseconds: summary.first, offsetSeconds: zone.offsetSeconds(at: summary.first)))
            object["last"] = .string(Timestamp.format(nanoseconds: summary.last, offsetSeconds: zone.offsetSeconds(at: summary.last)))
        }
        var levels: [String: JSONValue] = [:]
        for level in MessageType.allCases where summary.count(of: level) > 0 { levels[level.name] = .int(Int64(summary.count(of: level))) }
        object["messageTypes"] = .object(levels)
        for (key, value) in extra { object[key] = value }
        writer.append(.object(object))
    }

    mutating func time(_ nanoseconds: Int64) -> String {
        guard nanoseconds != .max, nanoseconds != .min else { return "-" }
        return String(Timestamp.format(nanoseconds: nanoseconds, offsetSeconds: zone.offsetSeconds(at: nanoseconds)).prefix(23))
    }

    static func processList(_ summary: RecordPatternSummary) -> String {
        var names = RecordPatternSummary.ranked(summary.processes).map(\.name)
        if summary.otherProcesses > 0 { names.append("…") }
        return names.isEmpty ? "-" : names.joined(separator: ",")
    }

    static func oneLine(_ text: String) -> String {
        let flat = text.map { $0.isNewline ? " " : $0 }
        return flat.count > 200 ? String(flat.prefix(200)) + "…" : String(flat)
    }

    func formatPercent(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }

    func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let text = text.count > width ? String(text.prefix(width - 1)) + "…" : text
        let spaces = String(repeating: " ", count: width - text.count)
        return right ? spaces + text : text + spaces
    }
}
