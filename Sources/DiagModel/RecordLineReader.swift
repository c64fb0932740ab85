/// Reads a protocol record line straight into the bind values of its row (`PackedRecords`):
/// texts stay where they are in the line, numbers are read once, and no `LogRecord` (nor its
/// strings) is made. diagd's connections read every record line with it first.
///
/// It takes only the plain shape every client of ours writes: one object, known keys each
/// once, strings, integers, `null`, `metadata` an object, `messageType`/`eventType` by their
/// exact names. Anything else (bad JSON, a wrong type, a repeated key, an alias, a formatted
/// timestamp) makes `read` return false, and the caller reads the line with
/// `LogRecord(jsonBytes:)`, which gives the record or the error: so the records stored and the
/// errors given are those of that one reader (`RecordLineReaderTests` compares them).
public struct RecordLineReader {
    /// Where a column's value is: in the line, in `scratch` (unescaped text, metadata written
    /// out), or an integer.
    enum Slot {
        case absent
        case integer(Int64)
        case line(start: Int, count: Int)
        case scratch(start: Int, count: Int)
    }

    /// The columns of `PackedRecords`' rows this reader fills.
    enum Column: Int {
        case timestamp = 0, receiptTime, messageType, eventType, process, processID, processImagePath, userID
        case sender, senderImagePath, subsystem, category, threadID, activityIdentifier, parentActivityIdentifier
        case traceID, eventMessage, formatString, signpostID, signpostName, signpostType, metadata, signpostScope
    }

    private var slots = [Slot](repeating: .absent, count: PackedRecords.columnCount)
    private var scratch: [UInt8] = []
    private var exactTimestamp: Int64?
    public private(set) var messageType = MessageType.default
    private var eventType = EventType.logEvent

    public init() {}

    /// Reads `line` if it is a plain record; false otherwise (see the type's comment). After
    /// true, `appendRow` packs it (with the same `line`).
    public mutating func read(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in slots.indices { slots[index] = .absent }
        scratch.removeAll(keepingCapacity: scratch.capacity <= 64 << 10)
        exactTimestamp = nil
        messageType = .default
        eventType = .logEvent
        var scanner = JSONScanner(line, maxDepth: JSONReader.defaultMaxDepth)
        do throws(JSONReaderError) {
            guard try members(&scanner) else { return false }
        } catch {
            return false
        }
        if case .absent = slots[Column.eventMessage.rawValue] { return false }
        return true
    }

    /// The subsystem of the line read, as a String (for the level settings).
    public func subsystem(in line: UnsafeBufferPointer<UInt8>) -> String? { string(.subsystem, in: line) }

    /// The category of the line read, as a String (for the level settings).
    public func category(in line: UnsafeBufferPointer<UInt8>) -> String? { string(.category, in: line) }

    /// Packs the record read from `line`, with diagd's receipt time (which also stands in for a
    /// missing timestamp) and the trusted fields the kernel gives in place of the client's.
    public func appendRow(
        from line: UnsafeBufferPointer<UInt8>, to packed: inout PackedRecords, receiptTime: Int64,
        process: String?, processID: Int64, processImagePath: String?, userID: Int64
    ) {
        let timestamp: Int64
        if let exactTimestamp {
            timestamp = exactTimestamp
        } else if case .integer(let given) = slots[Column.timestamp.rawValue] {
            timestamp = given
        } else {
            timestamp = receiptTime
        }
        scratch.withUnsafeBufferPointer { scratch in
            packed.appendRow(LineColumns(
                reader: self, line: line, scratch: scratch, timestamp: timestamp, receiptTime: receiptTime,
                process: process, processID: processID, processImagePath: processImagePath, userID: userID))
        }
    }

    /// The columns of the line read, with diagd's fields, as `appendRow` packs them.
    private struct LineColumns: PackedRowSource {
        let reader: RecordLineReader
        let line: UnsafeBufferPointer<UInt8>
        let scratch: UnsafeBufferPointer<UInt8>
        let timestamp: Int64
        let receiptTime: Int64
        let process: String?
        let processID: Int64
        let processImagePath: String?
        let userID: Int64

        func writeColumns(to row: inout some PackedColumns) {
            row.integer(timestamp)
            row.integer(receiptTime)
            row.integer(Int64(reader.messageType.rawValue))
            row.integer(Int64(reader.eventType.rawValue))
            row.text(process)
            row.integer(processID)
            row.text(processImagePath)
            row.integer(userID)
            for column in Column.sender.rawValue...Column.signpostScope.rawValue {
                switch reader.slots[column] {
                case .absent: row.null()
                case .integer(let value): row.integer(value)
                case .line(let start, let count): row.text(UnsafeBufferPointer(rebasing: line[start..<(start + count)]))
                case .scratch(let start, let count): row.text(UnsafeBufferPointer(rebasing: scratch[start..<(start + count)]))
                }
            }
        }
    }

    private func string(_ column: Column, in line: UnsafeBufferPointer<UInt8>) -> String? {
        switch slots[column.rawValue] {
        case .line(let start, let count): String(decoding: UnsafeBufferPointer(rebasing: line[start..<(start + count)]), as: UTF8.self)
        case .scratch(let start, let count): String(decoding: scratch[start..<(start + count)], as: UTF8.self)
        case .absent, .integer: nil
        }
    }

    /// The object's members; false at the first thing this reader leaves to `LogRecord(jsonBytes:)`.
    private mutating func members(_ scanner: inout JSONScanner) throws(JSONReaderError) -> Bool {
        let bytes = scanner.bytes
        scanner.skipWhitespace()
        guard scanner.index < bytes.count, bytes[scanner.index] == UInt8(ascii: "{") else { return false }
        scanner.index += 1
        scanner.depth = 1
        var seen: UInt64 = 0
        while true {
            scanner.skipWhitespace()
            guard scanner.index < bytes.count, bytes[scanner.index] == UInt8(ascii: "\"") else { return false }
            guard let key = plainKey(&scanner) else { return false }
            scanner.skipWhitespace()
            guard scanner.index < bytes.count, bytes[scanner.index] == UInt8(ascii: ":") else { return false }
            scanner.index += 1
            scanner.skipWhitespace()
            guard scanner.index < bytes.count else { return false }
            if let field = LogRecordField.named(key) {
                let bit: UInt64 = 1 << UInt64(field.bit)
                guard seen & bit == 0 else { return false }
                seen |= bit
                guard try value(of: field, &scanner) else { return false }
            } else {
                _ = try scanner.value()
            }
            scanner.skipWhitespace()
            guard scanner.index < bytes.count else { return false }
            switch bytes[scanner.index] {
            case UInt8(ascii: ","): scanner.index += 1
            case UInt8(ascii: "}"):
                scanner.index += 1
                scanner.skipWhitespace()
                return scanner.index == bytes.count
            default: return false
            }
        }
    }

    /// A key of plain ASCII, lent from the line; nil for any other (escapes, non-ASCII).
    private func plainKey(_ scanner: inout JSONScanner) -> UnsafeBufferPointer<UInt8>? {
        let bytes = scanner.bytes
        let start = scanner.index + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                scanner.index = end + 1
                return UnsafeBufferPointer(rebasing: bytes[start..<end])
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return nil }
            end += 1
        }
        return nil
    }

    /// One known field's value into its slot; false when it is not of the plain shape.
    private mutating func value(of field: LogRecordField, _ scanner: inout JSONScanner) throws(JSONReaderError) -> Bool {
        let bytes = scanner.bytes
        // `null` is the same as a missing key: the slot stays empty.
        if bytes[scanner.index] == UInt8(ascii: "n") {
            try scanner.literal("null")
            return true
        }
        switch field {
        case .timestamp: return integer(into: .timestamp, try scanner.number())
        case .timestampNanoseconds:
            guard case .int(let value) = try scanner.number() else { return false }
            exactTimestamp = value
            return true
        case .receiptTime: return integer(into: .receiptTime, try scanner.number())
        case .messageType:
            guard let name = try text(&scanner), let type = MessageType.allCases.first(where: { Self.equal(name, $0.staticName) }) else { return false }
            messageType = type
            return true
        case .eventType:
            guard let name = try text(&scanner), let type = EventType.allCases.first(where: { Self.equal(name, $0.staticName) }) else { return false }
            eventType = type
            return true
        case .message, .composedMessage: return false
        case .metadata:
            guard bytes[scanner.index] == UInt8(ascii: "{") else { return false }
            let members = try scanner.object()
            var writer = JSONWriter(reservingCapacity: 128)
            writer.append(.object(members))
            let start = scratch.count
            scratch.append(contentsOf: writer.bytes)
            slots[Column.metadata.rawValue] = .scratch(start: start, count: writer.bytes.count)
            return true
        case .processID: return integer(into: .processID, try scanner.number())
        case .userID: return integer(into: .userID, try scanner.number())
        case .threadID: return integer(into: .threadID, try scanner.number())
        case .activityIdentifier: return integer(into: .activityIdentifier, try scanner.number())
        case .parentActivityIdentifier: return integer(into: .parentActivityIdentifier, try scanner.number())
        case .traceID: return integer(into: .traceID, try scanner.number())
        case .signpostID: return integer(into: .signpostID, try scanner.number())
        case .process: return try string(into: .process, &scanner)
        case .processImagePath: return try string(into: .processImagePath, &scanner)
        case .sender: return try string(into: .sender, &scanner)
        case .senderImagePath: return try string(into: .senderImagePath, &scanner)
        case .subsystem: return try string(into: .subsystem, &scanner)
        case .category: return try string(into: .category, &scanner)
        case .eventMessage: return try string(into: .eventMessage, &scanner)
        case .formatString: return try string(into: .formatString, &scanner)
        case .signpostName: return try string(into: .signpostName, &scanner)
        case .signpostType: return try string(into: .signpostType, &scanner)
        case .signpostScope: return try string(into: .signpostScope, &scanner)
        }
    }

    private mutating func integer(into column: Column, _ value: JSONValue) -> Bool {
        guard case .int(let number) = value else { return false }
        slots[column.rawValue] = .integer(number)
        return true
    }

    private mutating func string(into column: Column, _ scanner: inout JSONScanner) throws(JSONReaderError) -> Bool {
        guard scanner.bytes[scanner.index] == UInt8(ascii: "\"") else { return false }
        let opening = scanner.index
        if let range = try scanner.plainString() {
            slots[column.rawValue] = .line(start: range.lowerBound, count: range.count)
        } else {
            // Escapes: the scanner's own decoding, from the opening quote again.
            scanner.index = opening
            var decoded = try scanner.string()
            let start = scratch.count
            decoded.withUTF8 { scratch.append(contentsOf: $0) }
            slots[column.rawValue] = .scratch(start: start, count: scratch.count - start)
        }
        return true
    }

    /// A string value without escapes, lent from the line; nil for any other value.
    private func text(_ scanner: inout JSONScanner) throws(JSONReaderError) -> UnsafeBufferPointer<UInt8>? {
        guard scanner.bytes[scanner.index] == UInt8(ascii: "\""), let range = try scanner.plainString() else { return nil }
        return UnsafeBufferPointer(rebasing: scanner.bytes[range])
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        bytes.count == name.utf8CodeUnitCount && bytes.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }
}
