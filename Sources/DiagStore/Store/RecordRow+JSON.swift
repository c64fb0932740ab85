import CSQLite
import DiagModel

extension RecordRow {
    /// Appends the row as `LogRecord.writeJSON` writes the record `decode` would make of it,
    /// byte for byte, without making the record: text columns are escaped straight from
    /// SQLite's bytes (repaired as `String(decoding:)` repairs them when they are not UTF-8).
    /// The same values are refused as by `decode`. The row is written into `scratch` with
    /// pointer stores, then appended in one copy.
    static func appendJSON(_ statement: Statement, chunk: String, offsetSeconds: Int, to bytes: inout [UInt8],
                           scratch: RowScratch) throws {
        var writer = RowWriter(scratch)
        try write(statement, chunk: chunk, offsetSeconds: offsetSeconds, to: &writer)
        bytes.append(contentsOf: UnsafeBufferPointer(start: scratch.base, count: writer.count))
    }

    private static func write(_ statement: Statement, chunk: String, offsetSeconds: Int, to out: inout RowWriter) throws {
        let code = statement.int64(at: 3)
        guard let messageType = MessageType(rawValue: Int(truncatingIfNeeded: code)) else {
            throw badValue(statement, chunk, "messageType", code, accepted: "0, 1, 2, 16 or 17")
        }
        let eventCode = statement.int64(at: 4)
        guard let eventType = EventType(rawValue: Int(truncatingIfNeeded: eventCode)) else {
            throw badValue(statement, chunk, "eventType", eventCode, accepted: "a code of EventType (1024 for logEvent)")
        }
        let timestamp = statement.int64(at: 1)
        let json = RowJSON(statement: statement)
        out.raw(#"{"timestamp":""#)
        out.reserve(Timestamp.maximumWrittenLength)
        out.count += Timestamp.write(nanoseconds: timestamp, offsetSeconds: offsetSeconds, fractionDigits: 6,
                                     separator: UInt8(ascii: " "), zoneColon: false, to: out.end)
        out.raw(#"","timestampNanoseconds":"#)
        out.integer(timestamp)
        out.raw(#","messageType":""#)
        out.raw(messageType.staticName)
        out.raw(#"","eventType":""#)
        out.raw(eventType.staticName)
        out.byte(UInt8(ascii: "\""))
        json.text(",\"process\":", 5, &out)
        json.integer(",\"processID\":", 6, &out)
        json.text(",\"processImagePath\":", 7, &out)
        json.integer(",\"userID\":", 8, &out)
        json.text(",\"sender\":", 9, &out)
        json.text(",\"senderImagePath\":", 10, &out)
        json.text(",\"subsystem\":", 11, &out)
        json.text(",\"category\":", 12, &out)
        json.integer(",\"threadID\":", 13, &out)
        json.integer(",\"activityIdentifier\":", 14, &out)
        json.integer(",\"parentActivityIdentifier\":", 15, &out)
        json.integer(",\"traceID\":", 16, &out)
        out.raw(#","eventMessage":"#)
        if json.string(17, &out) == nil { out.raw(#""""#) }
        json.text(",\"formatString\":", 18, &out)
        json.integer(",\"signpostID\":", 19, &out)
        json.text(",\"signpostName\":", 20, &out)
        json.text(",\"signpostType\":", 21, &out)
        if !statement.isNull(at: 22), !writeStoredMetadata(statement, to: &out) {
            let metadata: [String: JSONValue]
            do {
                metadata = try statement.withUTF8(at: 22) { try MetadataText.decode($0) }
            } catch {
                throw StoreError(.badRecord, path: chunk,
                                 reason: "record id \(statement.int64(at: 0)): column metadata: \(error)")
            }
            var writer = JSONWriter(reservingCapacity: 128)
            writer.append(.object(metadata))
            out.raw(#","metadata":"#)
            writer.bytes.withUnsafeBufferPointer { out.bytes($0) }
        }
        json.integer(",\"receiptTime\":", 2, &out)
        out.byte(UInt8(ascii: "}"))
    }

    /// Copies the metadata text when it is already the writer's form (`CanonicalMetadata`);
    /// false when it must be decoded and written again.
    private static func writeStoredMetadata(_ statement: Statement, to out: inout RowWriter) -> Bool {
        statement.withUTF8(at: 22) { text in
            guard CanonicalMetadata.isCanonical(text) else { return false }
            out.raw(#","metadata":"#)
            out.bytes(text)
            return true
        }
    }
}

/// Where rows of JSON are written before they are appended to the output: one allocation kept
/// from row to row (per thread), grown for a row longer than any before.
///
/// Not thread-safe: one per thread.
public final class RowScratch {
    fileprivate private(set) var base: UnsafeMutablePointer<UInt8>
    fileprivate private(set) var capacity: Int

    public init(capacity: Int = 4096) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Room for at least `minimum` bytes, the first `keeping` of them kept.
    fileprivate func grow(to minimum: Int, keeping count: Int) {
        let capacity = max(minimum, self.capacity * 2)
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        base.update(from: self.base, count: count)
        self.base.deallocate()
        self.base = base
        self.capacity = capacity
    }
}

@available(*, unavailable)
extension RowScratch: Sendable {}

/// Bytes stored at a `RowScratch`'s pointer, the room checked before each store.
private struct RowWriter {
    let scratch: RowScratch
    var count = 0

    init(_ scratch: RowScratch) { self.scratch = scratch }

    /// Where the next byte goes.
    var end: UnsafeMutablePointer<UInt8> { scratch.base + count }

    /// Makes room for `more` bytes after `count`.
    @inline(__always)
    mutating func reserve(_ more: Int) {
        if count + more > scratch.capacity { scratch.grow(to: count + more, keeping: count) }
    }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        reserve(1)
        scratch.base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes($0) }
    }

    @inline(__always)
    mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard let address = source.baseAddress, !source.isEmpty else { return }
        reserve(source.count)
        (scratch.base + count).update(from: address, count: source.count)
        count += source.count
    }

    /// Decimal digits, as `String(value)` writes them.
    mutating func integer(_ value: Int64) {
        reserve(20)
        let start = scratch.base + count
        var magnitude = value.magnitude
        var length = 0
        repeat {
            length += 1
            magnitude /= 10
        } while magnitude > 0
        var position = start
        if value < 0 {
            position.pointee = UInt8(ascii: "-")
            position += 1
        }
        magnitude = value.magnitude
        var index = length
        repeat {
            index -= 1
            position[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        count += length + (value < 0 ? 1 : 0)
    }

    /// `JSONWriter.append(string:)`'s escaping of `utf8` (`"`, `\`, control characters), quoted;
    /// with `asciiOnly`, stops at the first byte past ASCII and returns false, having written
    /// nothing (the caller repairs such text first), so that one pass over the bytes does both.
    @discardableResult
    mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>, asciiOnly: Bool = false) -> Bool {
        let start = count
        // Each byte takes at most six (\u00XX), plus the quotes.
        reserve(utf8.count * 6 + 2)
        var out = scratch.base + count
        out.pointee = UInt8(ascii: "\"")
        out += 1
        var runStart = 0
        var index = 0
        let source = utf8.baseAddress
        while index < utf8.count {
            // Eight bytes at a time while none needs escaping.
            if index + 8 <= utf8.count {
                let word = UnsafeRawPointer(source! + index).loadUnaligned(as: UInt64.self)
                if !RowJSON.needsEscape(word), !asciiOnly || word & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            let byte = utf8[index]
            let position = index
            index += 1
            if asciiOnly, byte >= 0x80 {
                count = start
                return false
            }
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < position {
                out.update(from: source! + runStart, count: position - runStart)
                out += position - runStart
            }
            runStart = position + 1
            out.pointee = UInt8(ascii: "\\")
            switch byte {
            case UInt8(ascii: "\""): out[1] = UInt8(ascii: "\""); out += 2
            case UInt8(ascii: "\\"): out[1] = UInt8(ascii: "\\"); out += 2
            case 0x0A: out[1] = UInt8(ascii: "n"); out += 2
            case 0x0D: out[1] = UInt8(ascii: "r"); out += 2
            case 0x09: out[1] = UInt8(ascii: "t"); out += 2
            case 0x08: out[1] = UInt8(ascii: "b"); out += 2
            case 0x0C: out[1] = UInt8(ascii: "f"); out += 2
            default:
                let hex: StaticString = "0123456789abcdef"
                out[1] = UInt8(ascii: "u")
                out[2] = UInt8(ascii: "0")
                out[3] = UInt8(ascii: "0")
                out[4] = hex.utf8Start[Int(byte >> 4)]
                out[5] = hex.utf8Start[Int(byte & 0xF)]
                out += 6
            }
        }
        if runStart < utf8.count {
            out.update(from: source! + runStart, count: utf8.count - runStart)
            out += utf8.count - runStart
        }
        out.pointee = UInt8(ascii: "\"")
        out += 1
        count = out - scratch.base
        return true
    }
}

/// Column-by-column JSON of one row, as `LogRecord.writeJSON` writes the decoded fields.
private struct RowJSON {
    let statement: Statement

    /// `key` and the column's text, unless the column is NULL.
    func text(_ key: StaticString, _ column: Int32, _ out: inout RowWriter) {
        statement.withUTF8IfNotNull(at: column) { text in
            out.raw(key)
            Self.quoted(text, &out)
        }
    }

    /// `key` and the column's integer, unless the column is NULL.
    func integer(_ key: StaticString, _ column: Int32, _ out: inout RowWriter) {
        guard !statement.isNull(at: column) else { return }
        out.raw(key)
        out.integer(statement.int64(at: column))
    }

    /// The column's text as a quoted JSON string; nil (nothing written) when it is NULL.
    @discardableResult
    func string(_ column: Int32, _ out: inout RowWriter) -> Void? {
        statement.withUTF8IfNotNull(at: column) { Self.quoted($0, &out) }
    }

    /// `text` as a quoted JSON string.
    static func quoted(_ text: UnsafeBufferPointer<UInt8>, _ out: inout RowWriter) {
        guard !out.escaped(text, asciiOnly: true) else { return }
        // Not ASCII: repaired as `Statement.string(at:)` repairs invalid UTF-8.
        var repaired = String(decoding: text, as: UTF8.self)
        repaired.withUTF8 { out.escaped($0) }
    }

    /// Whether any of the eight bytes is below 0x20, a `"` or a `\\` (bit tricks on the word:
    /// a byte below n leaves its high bit set in `(x - n) & ~x`).
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0
        return control || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
    }
}
