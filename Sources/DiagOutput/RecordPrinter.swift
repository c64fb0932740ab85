import DiagModel

/// Writes records in one of `log show`'s styles to an `OutputSink`, one at a time, so a query
/// of any size prints in flat memory. Call `begin()`, `write(_:)` per record, then `finish()`.
///
/// Not thread-safe: one printer belongs to one command.
public final class RecordPrinter {
    public let style: OutputStyle
    public let colored: Bool
    public let hostName: String
    private let sink: OutputSink
    private var zone: DisplayZone
    private var summary = LevelSummary()
    private var written = 0
    private var jsonScratch = JSONWriter(reservingCapacity: 1024)
    /// The text styles' lines; nil for the json styles.
    public let lineFormat: RecordLineFormat?
    /// `diag show --patterns`: every record's pattern, set before `write(_:)`; json and ndjson
    /// add `patternID` and `pattern`, the other styles begin the line with the ID.
    public var showsPatterns = false
    public var pattern: (id: String, text: String) = ("", "")

    public init(style: OutputStyle, zone: DisplayZone = .utc, colored: Bool = false, hostName: String = "localhost", sink: OutputSink) {
        self.style = style
        self.zone = zone
        self.colored = colored
        self.hostName = hostName
        self.sink = sink
        self.lineFormat = RecordLineFormat(style: style, colored: colored, hostName: hostName)
    }

    /// How many records were written.
    public var count: Int { written }

    /// The header line of the columnar styles.
    public func begin() {
        if showsPatterns, style != .json, style != .ndjson { sink.write("Pattern    ") }
        switch style {
        case .default: sink.write("Timestamp                       Thread     Type        Activity             PID    TTL  \n")
        case .compact: sink.write("Timestamp               Ty Process[PID:TID]\n")
        case .syslog: sink.write("Timestamp                       (process)[PID]    \n")
        case .json, .ndjson: break
        }
    }

    public func write(_ record: LogRecord) {
        let offset = zone.offsetSeconds(at: record.timestamp)
        if showsPatterns, style != .json, style != .ndjson { sink.write(pattern.id + " ") }
        switch style {
        case .default, .compact, .syslog:
            if style == .default { summary.count(record) }
            if let lineFormat { sink.withBuffer { lineFormat.append(record, offset: offset, to: &$0) } }
        case .ndjson:
            jsonScratch.bytes.removeAll(keepingCapacity: true)
            record.writeJSON(to: &jsonScratch, offsetSeconds: offset)
            appendPatternFields()
            jsonScratch.bytes.append(UInt8(ascii: "\n"))
            sink.write(jsonScratch.bytes)
        case .json:
            jsonScratch.bytes.removeAll(keepingCapacity: true)
            record.writeJSON(to: &jsonScratch, offsetSeconds: offset)
            appendPatternFields()
            sink.withBuffer { buffer in
                buffer.append(contentsOf: (written == 0 ? "[" : ",").utf8)
                PrettyJSON.append(jsonScratch.bytes, to: &buffer)
            }
        }
        written += 1
    }

    /// Replaces the object's closing brace with the pattern's fields and the brace.
    private func appendPatternFields() {
        guard showsPatterns else { return }
        jsonScratch.bytes.removeLast()
        jsonScratch.append(raw: ",\"patternID\":")
        jsonScratch.append(string: pattern.id)
        jsonScratch.append(raw: ",\"pattern\":")
        jsonScratch.append(string: pattern.text)
        jsonScratch.append(raw: "}")
    }

    /// Lines of NDJSON formatted elsewhere (`count` records): the bytes `write(_:)` writes for
    /// those records, for a source that formats its rows itself. Only the ndjson style takes it.
    public func writeNDJSON(lines: [UInt8], count: Int) {
        precondition(style == .ndjson, "writeNDJSON is for the ndjson style")
        sink.write(lines)
        written += count
    }

    /// Records of the json style formatted elsewhere (`count` of them): each as `write(_:)`
    /// writes it after the first, a comma and its indented object; the first one's comma becomes
    /// the array's opening bracket here.
    public func writeJSONElements(_ elements: [UInt8], count: Int) {
        precondition(style == .json, "writeJSONElements is for the json style")
        guard count > 0 else { return }
        if written == 0 {
            precondition(elements.first == UInt8(ascii: ","), "an element begins with its comma")
            sink.write("[")
            sink.write(Array(elements.dropFirst()))
        } else {
            sink.write(elements)
        }
        written += count
    }

    /// Lines of a text style formatted elsewhere with this printer's `lineFormat` (`count`
    /// records, `kinds` of them for the default style's closing counts): the bytes `write(_:)`
    /// writes for those records, for a source that formats its rows on its own threads.
    public func writeLines(_ lines: [UInt8], count: Int, kinds: SummaryCounts) {
        precondition(lineFormat != nil, "writeLines is for the text styles")
        sink.write(lines)
        if style == .default { summary.add(kinds) }
        written += count
    }

    /// The closing counts (default style) or the array's end (json), then everything is flushed.
    public func finish() {
        switch style {
        case .default: sink.write(summary.text)
        case .json: sink.write(written == 0 ? "[]\n" : "]\n")
        case .compact, .syslog, .ndjson: break
        }
        sink.flush()
    }
}

@available(*, unavailable)
extension RecordPrinter: Sendable {}
