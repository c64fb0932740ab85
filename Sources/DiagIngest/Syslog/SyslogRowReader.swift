import DiagModel
import Glibc

/// Syslog messages (RFC 5424 and RFC 3164) read straight into their packed rows
/// (`PackedRecords`), without the `SyslogMessage`, the `LogRecord` and the metadata dictionary
/// that `SyslogParser` and `SyslogMessage.record` make on the way: with those,
/// `Benchmarks/syslog-tcp.sh` spent about 6 µs of diagd's syslog threads a record (`perf record
/// -g`: the strings, the dictionary's hashing, its sorted keys written out as JSON), against
/// rsyslogd's 2.5 µs for all of its work.
///
/// It gives the row `SyslogMessage.record` makes, byte for byte, or declines (`read` returns
/// false) and the caller goes the general way, which then gives the record or the error: any
/// malformed message, text that is not well-formed UTF-8 (the general way repairs it), and
/// metadata keys outside ASCII (where `String`'s equality and order are Unicode's, not the
/// bytes'). It follows the general way's rules where they are shared (`SyslogCursor`,
/// `RFC3164Parser.Header`); `SyslogRowReaderTests` and `Fuzz/Syslog` compare the two.
struct SyslogRowReader {
    /// Everything the row takes that is not in the message's own bytes: header fields,
    /// structured data unescaped, metadata keys. Kept from message to message.
    private var text: [UInt8] = []
    private var entries: [Entry] = []
    private var metadata = JSONWriter(reservingCapacity: 256)

    private struct Span {
        var start: Int
        var count: Int
    }

    private enum Value {
        case text(Span)
        case json(JSONValue)
    }

    /// One metadata key and its value; keys are unique (`set`, `setIfAbsent`).
    private struct Entry {
        var key: Span
        var value: Value
    }

    /// The fields of the message read, as `SyslogMessage.record` fills a `LogRecord`.
    private struct Fields {
        var priority = SyslogPriority.missing
        var timestamp: Int64?
        var sender: Span?
        var subsystem: Span?
        var category = Span(start: 0, count: 0)
        var formatString: Span?
        var threadID: Int64?
        var activity: Int64?
        var parentActivity: Int64?
        var trace: Int64?
        /// The MSG, in the message's bytes.
        var message: Range<Int> = 0..<0
    }

    private var fields = Fields()

    /// Reads `bytes` (one datagram or TCP frame) and appends its row to `packed`, with
    /// `receiptTime`, `transport` (`metadata.syslogTransport`), `peer` (`metadata.syslogPeer`, TCP)
    /// and the kernel's `identity` of the sender (the datagram socket); false, with nothing
    /// appended, where the general way must read it. `keep` says whether the level settings
    /// store a record of that level, subsystem and category; false if not, nothing appended.
    mutating func read(
        _ bytes: UnsafeRawBufferPointer, receiptTime: Int64, transport: StaticString, peer: String?,
        identity: PeerIdentity?, into packed: inout PackedRecords,
        keep: (MessageType, _ subsystem: () -> String?, _ category: () -> String?) -> Bool
    ) -> Bool {
        text.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        fields = Fields()
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        let message = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        guard parse(message, transport: transport, peer: peer) else { return false }
        let fields = fields
        let kept = text.withUnsafeBufferPointer { text in
            keep(fields.priority.messageType,
                 { fields.subsystem.map { String(decoding: Self.slice(text, $0), as: UTF8.self) } },
                 { String(decoding: Self.slice(text, fields.category), as: UTF8.self) })
        }
        guard kept else { return false }
        writeMetadata()
        text.withUnsafeBufferPointer { text in
            metadata.bytes.withUnsafeBufferPointer { metadata in
                packed.appendRow(Columns(
                    fields: fields, text: text, message: message.assumingMemoryBound(to: UInt8.self),
                    metadata: metadata, receiptTime: receiptTime, identity: identity))
            }
        }
        return true
    }

    // MARK: Reading (SyslogParser's rules; any refusal declines)

    private mutating func parse(_ bytes: UnsafeRawBufferPointer, transport: StaticString, peer: String?) -> Bool {
        var cursor = SyslogCursor(bytes)
        guard !cursor.atEnd else { return false }
        var priority = SyslogPriority.missing
        if cursor.take(UInt8(ascii: "<")) {
            guard let value = cursor.digits(maximumCount: 3), cursor.take(UInt8(ascii: ">")),
                  let parsed = SyslogPriority(value: value)
            else { return false }
            priority = parsed
        }
        fields.priority = priority
        fields.category = append(priority.facilityName)
        // The header's keys differ from each other and come first: added without a look-up.
        add(key: "syslogFacility", .text(fields.category))
        add(key: "syslogSeverity", .text(append(priority.severityName)))
        add(key: "syslogTransport", .text(append(transport)))
        if cursor.take(prefix: "1 ") {
            guard rfc5424(&cursor, bytes) else { return false }
        } else {
            guard rfc3164(cursor, bytes) else { return false }
        }
        if let peer { set(key: "syslogPeer", .text(append(peer))) }
        return true
    }

    /// The rest of an RFC 5424 message (`RFC5424Parser`'s rules), after its `<PRI>1 `.
    private mutating func rfc5424(_ cursor: inout SyslogCursor, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let time = field(&cursor, maximum: 48) else { return false }
        if let time {
            guard let value = Timestamp.parse(String(decoding: time, as: UTF8.self)) else { return false }
            fields.timestamp = value
        }
        guard let hostname = field(&cursor, maximum: 255), let appName = field(&cursor, maximum: 48),
              let processID = field(&cursor, maximum: 128), let messageID = field(&cursor, maximum: 32)
        else { return false }
        add(key: "syslogFormat", .text(append("rfc5424")))
        if let hostname { add(key: "syslogHostname", .text(append(hostname))) }
        if let appName { fields.sender = append(appName) }
        if let processID { add(key: "syslogPID", .text(append(processID))) }
        if let messageID { add(key: "syslogMsgID", .text(append(messageID))) }
        guard structuredData(&cursor) else { return false }
        if !cursor.atEnd {
            guard cursor.take(0x20) else { return false }
            var start = cursor.position
            let rest = cursor.remaining
            if rest.count >= 3, rest[0] == 0xEF, rest[1] == 0xBB, rest[2] == 0xBF { start += 3 }
            fields.message = start..<bytes.count
            guard UTF8Validation.isValid(UnsafeRawBufferPointer(rebasing: bytes[fields.message]).assumingMemoryBound(to: UInt8.self))
            else { return false }
        }
        return true
    }

    /// The rest of a BSD message (`RFC3164Parser.Header`'s rules), after its PRI if it has one:
    /// what `glibc`'s `syslog()`, `logger` and Python's `SysLogHandler` send.
    private mutating func rfc3164(_ cursor: SyslogCursor, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let start = cursor.position
        let rest = cursor.remaining
        // Well-formed UTF-8 or the general way, which repairs it; every part the header cuts
        // from well-formed text is well-formed.
        guard UTF8Validation.isValid(rest.assumingMemoryBound(to: UInt8.self)) else { return false }
        let header = RFC3164Parser.Header(rest)
        fields.timestamp = header.timestamp
        add(key: "syslogFormat", .text(append("rfc3164")))
        if let hostname = header.hostname { add(key: "syslogHostname", .text(append(UnsafeRawBufferPointer(rebasing: rest[hostname])))) }
        if let tag = header.tag {
            fields.sender = append(UnsafeRawBufferPointer(rebasing: rest[tag.name]))
            if let pid = tag.pid { add(key: "syslogPID", .text(append(UnsafeRawBufferPointer(rebasing: rest[pid])))) }
        }
        fields.message = (start + header.message.lowerBound)..<(start + header.message.upperBound)
        return true
    }

    /// A header field and the space after it: `.some(nil)` for `-`, nil where it is malformed.
    private func field(_ cursor: inout SyslogCursor, maximum: Int) -> UnsafeRawBufferPointer?? {
        switch cursor.headerField(maximum: maximum) {
        case .value(let word): .some(word)
        case .nilValue: .some(nil)
        case .malformed, .unterminated: nil
        }
    }

    private mutating func structuredData(_ cursor: inout SyslogCursor) -> Bool {
        if cursor.take(UInt8(ascii: "-")) { return true }
        var elements = 0
        var parameters = 0
        while cursor.peek == UInt8(ascii: "[") {
            cursor.advance()
            guard let id = name(&cursor) else { return false }
            let ours = equals(id, "diag@32473")
            while cursor.take(0x20) {
                guard let parameter = name(&cursor), cursor.take(UInt8(ascii: "=")), cursor.take(UInt8(ascii: "\"")),
                      let value = quoted(&cursor)
                else { return false }
                parameters += 1
                guard parameters <= SyslogParser.maximumParameters else { return false }
                if ours {
                    guard restore(parameter, value) else { return false }
                } else {
                    // `name`, or `SD-ID.name` when the name is taken, as `SyslogMessage.record` keys it.
                    if find(parameter) == nil {
                        entries.append(Entry(key: parameter, value: .text(value)))
                    } else {
                        let key = joined(id, parameter)
                        if find(key) == nil { entries.append(Entry(key: key, value: .text(value))) }
                    }
                }
            }
            guard cursor.take(UInt8(ascii: "]")) else { return false }
            elements += 1
        }
        return elements > 0
    }

    /// An SD-NAME (`SyslogCursor.sdName`), copied into `text`.
    private mutating func name(_ cursor: inout SyslogCursor) -> Span? {
        cursor.sdName().map { append($0) }
    }

    /// A PARAM-VALUE (`SyslogCursor.quotedValue`), unescaped into `text`; nil unless it has its
    /// closing quote and is well-formed UTF-8.
    private mutating func quoted(_ cursor: inout SyslogCursor) -> Span? {
        let start = text.count
        guard cursor.quotedValue(into: &text) else { return nil }
        let span = Span(start: start, count: text.count - start)
        return text.withUnsafeBufferPointer { UTF8Validation.isValid(Self.slice($0, span)) } ? span : nil
    }

    /// A parameter of our own element (`diag@32473`), as `SyslogMessage.restoreFields` takes it;
    /// false where a metadata key is not ASCII.
    private mutating func restore(_ name: Span, _ value: Span) -> Bool {
        func number() -> Int64? { text.withUnsafeBufferPointer { Int64(String(decoding: Self.slice($0, value), as: UTF8.self)) } }
        if equals(name, "subsystem") { fields.subsystem = value }
        else if equals(name, "category") { fields.category = value }
        else if equals(name, "sender") { fields.sender = value }
        else if equals(name, "activity") { fields.activity = number() }
        else if equals(name, "parentActivity") { fields.parentActivity = number() }
        else if equals(name, "thread") { fields.threadID = number() }
        else if equals(name, "trace") { fields.trace = number() }
        else if equals(name, "formatString") { fields.formatString = value }
        else if equals(name, "metadata") {
            let object = text.withUnsafeBufferPointer { text in try? JSONReader.parseObject(Self.slice(text, value)) }
            for (key, item) in object ?? [:] {
                guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
                set(key: key, .json(item))
            }
        }
        return true
    }

    // MARK: Metadata

    /// Sets `key` (ASCII), replacing its value if it has one.
    private mutating func set(key: String, _ value: Value) {
        var key = key
        let span = key.withUTF8 { append(UnsafeRawBufferPointer($0)) }
        set(key: span, value)
    }

    private mutating func set(key: StaticString, _ value: Value) {
        set(key: append(key), value)
    }

    /// Adds `key`, which no entry has yet.
    private mutating func add(key: StaticString, _ value: Value) {
        entries.append(Entry(key: append(key), value: value))
    }

    private mutating func set(key: Span, _ value: Value) {
        if let index = find(key) {
            entries[index].value = value
        } else {
            entries.append(Entry(key: key, value: value))
        }
    }

    private func find(_ key: Span) -> Int? {
        text.withUnsafeBufferPointer { text in
            entries.firstIndex { Self.compare(text, $0.key, key) == 0 }
        }
    }

    /// The order of two spans' bytes (as `memcmp`, the shorter first where one begins the other).
    private static func compare(_ text: UnsafeBufferPointer<UInt8>, _ a: Span, _ b: Span) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let base = text.baseAddress {
            let order = memcmp(base + a.start, base + b.start, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    /// The metadata as `JSONWriter` writes a `[String: JSONValue]`: keys sorted (all ASCII here,
    /// so `String`'s order is the bytes').
    private mutating func writeMetadata() {
        metadata.bytes.removeAll(keepingCapacity: true)
        text.withUnsafeBufferPointer { text in
            entries.sort { Self.compare(text, $0.key, $1.key) < 0 }
            metadata.bytes.append(UInt8(ascii: "{"))
            for (index, entry) in entries.enumerated() {
                if index > 0 { metadata.bytes.append(UInt8(ascii: ",")) }
                metadata.append(stringUTF8: Self.slice(text, entry.key))
                metadata.bytes.append(UInt8(ascii: ":"))
                switch entry.value {
                case .text(let span): metadata.append(stringUTF8: Self.slice(text, span))
                case .json(let value): metadata.append(value)
                }
            }
            metadata.bytes.append(UInt8(ascii: "}"))
        }
    }

    // MARK: Text

    private mutating func append(_ bytes: UnsafeRawBufferPointer) -> Span {
        let start = text.count
        text.append(contentsOf: bytes)
        return Span(start: start, count: bytes.count)
    }

    private mutating func append(_ string: String) -> Span {
        var string = string
        return string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    private mutating func append(_ string: StaticString) -> Span {
        string.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    private mutating func joined(_ id: Span, _ name: Span) -> Span {
        let start = text.count
        text.append(contentsOf: text[id.start..<(id.start + id.count)])
        text.append(UInt8(ascii: "."))
        text.append(contentsOf: text[name.start..<(name.start + name.count)])
        return Span(start: start, count: text.count - start)
    }

    private func equals(_ span: Span, _ literal: StaticString) -> Bool {
        guard span.count == literal.utf8CodeUnitCount else { return false }
        return text.withUnsafeBufferPointer { text in
            span.count == 0 || memcmp(text.baseAddress! + span.start, literal.utf8Start, span.count) == 0
        }
    }

    private static func slice(_ text: UnsafeBufferPointer<UInt8>, _ span: Span) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: text[span.start..<(span.start + span.count)])
    }

    // MARK: The row

    /// The columns of `RecordFields.all`, as `PackedRecords.append(_:)` packs the `LogRecord` that
    /// `SyslogMessage.record` makes (stamped with `identity` when there is one).
    private struct Columns: PackedRowSource {
        let fields: Fields
        let text: UnsafeBufferPointer<UInt8>
        let message: UnsafeBufferPointer<UInt8>
        let metadata: UnsafeBufferPointer<UInt8>
        let receiptTime: Int64
        let identity: PeerIdentity?

        func writeColumns(to row: inout some PackedColumns) {
            row.integer(fields.timestamp ?? receiptTime)
            row.integer(receiptTime)
            row.integer(Int64(fields.priority.messageType.rawValue))
            row.integer(Int64(EventType.logEvent.rawValue))
            row.text(identity?.process)
            row.integer(identity?.processID)
            row.text(identity?.processImagePath)
            row.integer(identity?.userID)
            column(fields.sender, to: &row)
            row.null()  // senderImagePath
            column(fields.subsystem, to: &row)
            column(fields.category, to: &row)
            row.integer(fields.threadID)
            row.integer(fields.activity)
            row.integer(fields.parentActivity)
            row.integer(fields.trace)
            row.text(UnsafeBufferPointer(rebasing: message[fields.message]))
            column(fields.formatString, to: &row)
            row.null()  // signpostID
            row.null()  // signpostName
            row.null()  // signpostType
            row.text(metadata)
            row.null()  // signpostScope
        }

        private func column(_ span: Span?, to row: inout some PackedColumns) {
            guard let span else { return row.null() }
            row.text(SyslogRowReader.slice(text, span))
        }
    }
}
