import DiagModel
import DiagOutput
import DiagPatterns

/// How `diag diff` writes its result: sections of text, or one JSON object.
struct DiffReport {
    let diff: PatternDiff
    let totals: SideTotals
    let names: (base: String, target: String)
    let overflow: Int
    var zone: DisplayZone

    mutating func writeText(to sink: OutputSink) {
        var text = "BASE   \(names.base): \(totals.records[0]) records over \(minutesText(0))\n"
        text += "TARGET \(names.target): \(totals.records[1]) records over \(minutesText(1))\n"
        if overflow > 0 { text += "\(overflow) records needed more patterns than the cap and are compared in none\n" }
        text += "\nNew in TARGET: \(diff.new.count) pattern\(diff.new.count == 1 ? "" : "s")\n"
        for entry in diff.new { text += entryText(entry, side: entry.target) }
        text += "\nGone from TARGET: \(diff.gone.count) pattern\(diff.gone.count == 1 ? "" : "s")\n"
        for entry in diff.gone { text += entryText(entry, side: entry.base) }
        text += "\nChanged in rate: \(diff.changed.count) pattern\(diff.changed.count == 1 ? "" : "s") (records per minute, BASE -> TARGET)\n"
        for entry in diff.changed {
            text += "  \(rate(entry.base.count, 0)) -> \(rate(entry.target.count, 1))/min  (\(entry.base.count) -> \(entry.target.count), z \(fixed(entry.z, 1)))  \(entry.pattern)  (\(entry.id))\n"
        }
        text += "\nRecords per process        BASE     TARGET\n"
        for (name, counts) in totals.processes.sorted(by: { $0.key < $1.key }) {
            text += "  " + pad(name, 20) + pad(String(counts[0]), 10, right: true) + pad(String(counts[1]), 11, right: true) + "\n"
        }
        text += "Records per level          BASE     TARGET\n"
        for level in MessageType.allCases {
            let counts = totals.levels[level] ?? [0, 0]
            text += "  " + pad(level.name, 20) + pad(String(counts[0]), 10, right: true) + pad(String(counts[1]), 11, right: true) + "\n"
        }
        sink.write(text)
    }

    mutating func writeJSON(to sink: OutputSink) {
        var table = PatternTable(zone: zone)
        var writer = JSONWriter()
        func list(_ entries: [PatternDiff.Entry], _ writer: inout JSONWriter) {
            writer.append(raw: "[")
            for (index, entry) in entries.enumerated() {
                if index > 0 { writer.append(raw: ",") }
                var merged = entry.target
                merged.merge(entry.base)
                table.appendObject(id: entry.id, text: entry.pattern, summary: merged, to: &writer, extra: [
                    ("baseCount", .int(Int64(entry.base.count))), ("targetCount", .int(Int64(entry.target.count))),
                    ("basePerMinute", .double(rateValue(entry.base.count, 0))), ("targetPerMinute", .double(rateValue(entry.target.count, 1))),
                    ("z", .double((entry.z * 100).rounded() / 100)),
                ])
            }
            writer.append(raw: "]")
        }
        writer.append(raw: "{\"base\":")
        writer.append(side(0, names.base))
        writer.append(raw: ",\"target\":")
        writer.append(side(1, names.target))
        writer.append(raw: ",\"new\":")
        list(diff.new, &writer)
        writer.append(raw: ",\"gone\":")
        list(diff.gone, &writer)
        writer.append(raw: ",\"changed\":")
        list(diff.changed, &writer)
        writer.append(raw: ",\"processes\":")
        writer.append(.array(totals.processes.sorted(by: { $0.key < $1.key }).map { name, counts in
            .object(["process": .string(name), "base": .int(Int64(counts[0])), "target": .int(Int64(counts[1]))])
        }))
        writer.append(raw: ",\"messageTypes\":")
        writer.append(.array(MessageType.allCases.map { level in
            let counts = totals.levels[level] ?? [0, 0]
            return .object(["messageType": .string(level.name), "base": .int(Int64(counts[0])), "target": .int(Int64(counts[1]))])
        }))
        writer.append(raw: ",\"overflow\":")
        writer.append(Int64(overflow))
        writer.append(raw: "}\n")
        sink.write(writer.bytes)
    }

    private func side(_ index: Int, _ name: String) -> JSONValue {
        .object(["source": .string(name), "records": .int(Int64(totals.records[index])), "minutes": .double((totals.minutes(index) * 1000).rounded() / 1000)])
    }

    private func entryText(_ entry: PatternDiff.Entry, side: RecordPatternSummary) -> String {
        var levels: [String] = []
        for level in MessageType.allCases where side.count(of: level) > 0 { levels.append("\(side.count(of: level)) \(level.name)") }
        var text = "  " + pad(String(side.count), 7, right: true) + "  [" + levels.joined(separator: ", ") + "]  " + entry.pattern + "  (" + entry.id + ")\n"
        text += "           processes: " + PatternTable.processList(side) + "\n"
        text += "           e.g. " + PatternTable.oneLine(side.sample ?? "") + "\n"
        return text
    }

    private func rateValue(_ count: Int, _ side: Int) -> Double {
        (Double(count) / totals.minutes(side) * 100).rounded() / 100
    }

    private func rate(_ count: Int, _ side: Int) -> String { fixed(rateValue(count, side), 2) }

    private func minutesText(_ side: Int) -> String { fixed(totals.minutes(side), 2) + " min" }

    private func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = String(scaled % Int64(scale))
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return digits == 0 ? sign + String(whole) : sign + String(whole) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let spaces = String(repeating: " ", count: max(0, width - text.count))
        return right ? spaces + text : text + spaces
    }
}
