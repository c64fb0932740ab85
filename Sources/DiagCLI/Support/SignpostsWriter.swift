import DiagModel
import DiagOutput
import DiagQuery

/// Writes `diag signposts`' output: intervals as they end (with --intervals), then the summary.
/// JSON is one object, `intervals` first so that they stream; NDJSON is one object per line
/// with a `type` (interval, name, activity, event, unmatchedBegin, unmatchedEnd, summary).
final class SignpostsWriter {
    let style: SignpostsCommand.Style
    let listIntervals: Bool
    let sink: OutputSink
    private var json: SignpostsJSON
    private var zone: DisplayZone
    private var written = 0

    init(style: SignpostsCommand.Style, zone: DisplayZone, listIntervals: Bool, sink: OutputSink) {
        self.style = style
        self.zone = zone
        self.listIntervals = listIntervals
        self.sink = sink
        json = SignpostsJSON(zone: zone)
    }

    func begin() {
        switch style {
        case .json: sink.write(listIntervals ? "{\"intervals\":[\n" : "{")
        case .default: if listIntervals { sink.write("Start                         Duration  Process[PID:TID]  Name  (begin → end)\n") }
        case .ndjson: break
        }
    }

    func interval(_ interval: Interval) {
        guard listIntervals else { return }
        switch style {
        case .json:
            sink.write((written == 0 ? "" : ",\n") + encode(.object(json.interval(interval))))
        case .ndjson:
            var object = json.interval(interval)
            object["type"] = .string("interval")
            sink.write(encode(.object(object)) + "\n")
        case .default:
            let begin = interval.begin
            let who = "\(begin.process ?? "?")[\(begin.processID.map(String.init) ?? "-"):\(begin.threadID.map { String($0, radix: 16) } ?? "-")]"
            let offset = zone.offsetSeconds(at: begin.timestamp)
            let label = interval.kind == .activity ? "activity \(begin.name) (\(interval.processes.joined(separator: ", ")))" : begin.name
            sink.write("\(Timestamp.format(nanoseconds: begin.timestamp, offsetSeconds: offset))  \(Self.pad(DurationText.format(interval.duration), 9))  \(who)  \(label)  (\(begin.message) → \(interval.endMessage))\n")
        }
        written += 1
    }

    func finish(_ analysis: SignpostAnalysis) {
        switch style {
        case .json: finishJSON(analysis)
        case .ndjson: finishNDJSON(analysis)
        case .default: sink.write(SignpostsText.summary(analysis, zone: zone))
        }
        sink.flush()
    }

    private func finishJSON(_ analysis: SignpostAnalysis) {
        if listIntervals { sink.write("\n],") }
        var members: [(String, JSONValue)] = [
            ("names", .array(analysis.namesByTotal.map { .object(json.summary($0)) })),
            ("activities", .array(analysis.activityNamesByTotal.map { .object(json.summary($0)) })),
            ("events", .array(analysis.events.sorted { $0.key < $1.key }.map { .object(SignpostsJSON.event($0.key, count: $0.value)) })),
            ("unmatchedBegins", .array(analysis.unmatchedBegins.map { .object(json.mark($0)) })),
            ("unmatchedEnds", .array(analysis.unmatchedEnds.map { .object(json.mark($0)) })),
        ]
        members += SignpostsJSON.counts(analysis).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let body = members.map { "\"\($0.0)\":" + encode($0.1) }.joined(separator: ",\n")
        sink.write(body + "}\n")
    }

    private func finishNDJSON(_ analysis: SignpostAnalysis) {
        func line(_ type: String, _ object: [String: JSONValue]) {
            var object = object
            object["type"] = .string(type)
            sink.write(encode(.object(object)) + "\n")
        }
        for summary in analysis.namesByTotal { line("name", json.summary(summary)) }
        for summary in analysis.activityNamesByTotal { line("activity", json.summary(summary)) }
        for (name, count) in analysis.events.sorted(by: { $0.key < $1.key }) { line("event", SignpostsJSON.event(name, count: count)) }
        for mark in analysis.unmatchedBegins { line("unmatchedBegin", json.mark(mark)) }
        for mark in analysis.unmatchedEnds { line("unmatchedEnd", json.mark(mark)) }
        line("summary", SignpostsJSON.counts(analysis))
    }

    private func encode(_ value: JSONValue) -> String {
        var writer = JSONWriter(reservingCapacity: 256)
        writer.append(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}

/// Durations as people read them: µs under a millisecond, ms under a second, else seconds.
enum DurationText {
    static func format(_ nanoseconds: Int64) -> String {
        let value = Double(nanoseconds)
        if nanoseconds < 1_000_000 { return "\(Int((value / 1e3).rounded())) µs" }
        if nanoseconds < 1_000_000_000 { return fixed(value / 1e6, 1) + " ms" }
        return fixed(value / 1e9, 3) + " s"
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((value * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = String(scaled % Int64(scale))
        return "\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
