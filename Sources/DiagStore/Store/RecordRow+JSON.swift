import CSQLite
import DiagModel

extension RecordRow {
    /// Appends the row as `LogRecord.writeJSON` writes the record `decode` would make of it,
    /// byte for byte, without making the record: text columns are escaped straight from
    /// SQLite's bytes (repaired as `String(decoding:)` repairs them when they are not UTF-8).
    /// The same values are refused as by `decode`.
    static func appendJSON(_ statement: Statement, chunk: String, offsetSeconds: Int, to bytes: inout [UInt8]) throws {
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
        RowJSON.raw(#"{"timestamp":""#, &bytes)
        Timestamp.append(nanoseconds: timestamp, offsetSeconds: offsetSeconds, fractionDigits: 6, separator: " ", zoneColon: false, to: &bytes)
        RowJSON.raw(#"","timestampNanoseconds":"#, &bytes)
        RowJSON.appendInteger(timestamp, to: &bytes)
        RowJSON.raw(#","messageType":""#, &bytes)
        bytes.append(contentsOf: messageType.name.utf8)
        RowJSON.raw(#"","eventType":""#, &bytes)
        bytes.append(contentsOf: eventType.name.utf8)
        bytes.append(UInt8(ascii: "\""))
        json.text(",\"process\":", 5, &bytes)
        json.integer(",\"processID\":", 6, &bytes)
        json.text(",\"processImagePath\":", 7, &bytes)
        json.integer(",\"userID\":", 8, &bytes)
        json.text(",\"sender\":", 9, &bytes)
        json.text(",\"senderImagePath\":", 10, &bytes)
        json.text(",\"subsystem\":", 11, &bytes)
        json.text(",\"category\":", 12, &bytes)
        json.integer(",\"threadID\":", 13, &bytes)
        json.integer(",\"activityIdentifier\":", 14, &bytes)
        json.integer(",\"parentActivityIdentifier\":", 15, &bytes)
        json.integer(",\"traceID\":", 16, &bytes)
        RowJSON.raw(#","eventMessage":"#, &bytes)
        if statement.isNull(at: 17) { RowJSON.raw(#""""#, &bytes) } else { json.string(17, &bytes) }
        json.text(",\"formatString\":", 18, &bytes)
        json.integer(",\"signpostID\":", 19, &bytes)
        json.text(",\"signpostName\":", 20, &bytes)
        json.text(",\"signpostType\":", 21, &bytes)
        if !statement.isNull(at: 22), !appendStoredMetadata(statement, to: &bytes) {
            let metadata: [String: JSONValue]
            do {
                metadata = try statement.withUTF8(at: 22) { try MetadataText.decode($0) }
            } catch {
                throw StoreError(.badRecord, path: chunk,
                                 reason: "record id \(statement.int64(at: 0)): column metadata: \(error)")
            }
            var writer = JSONWriter(reservingCapacity: 128)
            writer.append(.object(metadata))
            RowJSON.raw(#","metadata":"#, &bytes)
            bytes.append(contentsOf: writer.bytes)
        }
        json.integer(",\"receiptTime\":", 2, &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
}

extension RecordRow {
    /// Copies the metadata text when it is already the writer's form (`CanonicalMetadata`);
    /// false when it must be decoded and written again.
    private static func appendStoredMetadata(_ statement: Statement, to bytes: inout [UInt8]) -> Bool {
        statement.withUTF8(at: 22) { text in
            guard CanonicalMetadata.isCanonical(text) else { return false }
            RowJSON.raw(#","metadata":"#, &bytes)
            bytes.append(contentsOf: text)
            return true
        }
    }
}

/// Column-by-column JSON of one row, as `LogRecord.writeJSON` writes the decoded fields.
private struct RowJSON {
    let statement: Statement

    @inline(__always)
    static func raw(_ text: StaticString, _ bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `key` and the column's text, unless the column is NULL.
    func text(_ key: StaticString, _ column: Int32, _ bytes: inout [UInt8]) {
        guard !statement.isNull(at: column) else { return }
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        string(column, &bytes)
    }

    /// `key` and the column's integer, unless the column is NULL.
    func integer(_ key: StaticString, _ column: Int32, _ bytes: inout [UInt8]) {
        guard !statement.isNull(at: column) else { return }
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        Self.appendInteger(statement.int64(at: column), to: &bytes)
    }

    /// The column's text as a quoted JSON string.
    func string(_ column: Int32, _ bytes: inout [UInt8]) {
        statement.withUTF8(at: column) { text in
            if Self.isASCII(text) {
                Self.appendEscaped(text, to: &bytes)
            } else {
                // Not ASCII: repaired as `Statement.string(at:)` repairs invalid UTF-8.
                var repaired = String(decoding: text, as: UTF8.self)
                repaired.withUTF8 { Self.appendEscaped($0, to: &bytes) }
            }
        }
    }

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        return combined < 0x80
    }

    /// `JSONWriter.append(string:)`'s escaping: `"`, `\`, and control characters.
    static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        while index < utf8.count {
            // Eight bytes at a time while none needs escaping.
            if index + 8 <= utf8.count, !Self.needsEscape(UnsafeRawPointer(utf8.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = utf8[index]
            index += 1
            let position = index - 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < position { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position])) }
            runStart = position + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: "u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            }
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
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

    /// Decimal digits, as `String(value)` writes them.
    static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &digits) { raw in
            var index = raw.count
            let digits = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(start: digits + index, count: raw.count - index))
        }
    }
}
