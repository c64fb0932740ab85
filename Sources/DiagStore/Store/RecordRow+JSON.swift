import CSQLite
import DiagModel

extension RecordRow {
    /// Appends the row as `LogRecord.writeJSON` writes the record `decode` would make of it,
    /// byte for byte, without making the record: text columns are escaped straight from
    /// SQLite's bytes (repaired as `String(decoding:)` repairs them when they are not UTF-8).
    /// The same values are refused as by `decode`. The row is put together in `scratch` (kept
    /// from row to row) with pointer stores, then appended in one copy.
    static func appendJSON(_ statement: Statement, chunk: String, offsetSeconds: Int, to bytes: inout [UInt8],
                           scratch: inout ByteWriter) throws {
        scratch.count = 0
        try write(statement, chunk: chunk, offsetSeconds: offsetSeconds, to: &scratch)
        bytes.append(contentsOf: scratch.bytes)
    }

    private static func write(_ statement: Statement, chunk: String, offsetSeconds: Int, to out: inout ByteWriter) throws {
        let (messageType, eventType) = try types(statement, chunk: chunk)
        let timestamp = statement.int64(at: 1)
        let json = RowJSON(statement: statement)
        out.append(#"{"timestamp":""#)
        out.appendTimestamp(nanoseconds: timestamp, offsetSeconds: offsetSeconds, fractionDigits: 6,
                            separator: UInt8(ascii: " "), zoneColon: false)
        out.append(#"","timestampNanoseconds":"#)
        out.appendDigits(timestamp)
        out.append(#","messageType":""#)
        out.append(messageType.staticName)
        out.append(#"","eventType":""#)
        out.append(eventType.staticName)
        out.append(UInt8(ascii: "\""))
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
        out.append(#","eventMessage":"#)
        if json.string(17, &out) == nil { out.append(#""""#) }
        json.text(",\"formatString\":", 18, &out)
        json.integer(",\"signpostID\":", 19, &out)
        json.text(",\"signpostName\":", 20, &out)
        json.text(",\"signpostType\":", 21, &out)
        json.text(",\"signpostScope\":", 23, &out)
        if writeStoredMetadata(statement, to: &out) == false {
            let metadata: [String: JSONValue]
            do {
                metadata = try statement.withUTF8(at: 22) { try MetadataText.decode($0) }
            } catch {
                throw StoreError(.badRecord, path: chunk,
                                 reason: "record id \(statement.int64(at: 0)): column metadata: \(error)")
            }
            var writer = JSONWriter(reservingCapacity: 128)
            writer.append(.object(metadata))
            out.append(#","metadata":"#)
            out.append(writer.bytes)
        }
        json.integer(",\"receiptTime\":", 2, &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Copies the metadata text when it is already the writer's form (`CanonicalMetadata`);
    /// false when it must be decoded and written again, nil when the column is NULL.
    private static func writeStoredMetadata(_ statement: Statement, to out: inout ByteWriter) -> Bool? {
        statement.withUTF8IfNotNull(at: 22) { text in
            guard CanonicalMetadata.isCanonical(text) else { return false }
            out.append(#","metadata":"#)
            out.append(text)
            return true
        }
    }
}

/// Column-by-column JSON of one row, as `LogRecord.writeJSON` writes the decoded fields.
private struct RowJSON {
    let statement: Statement

    /// `key` and the column's text, unless the column is NULL.
    func text(_ key: StaticString, _ column: Int32, _ out: inout ByteWriter) {
        statement.withUTF8IfNotNull(at: column) { text in
            out.append(key)
            Self.quoted(text, &out)
        }
    }

    /// `key` and the column's integer, unless the column is NULL (`optionalInt64` asks the
    /// column's type only for a 0).
    func integer(_ key: StaticString, _ column: Int32, _ out: inout ByteWriter) {
        guard let value = statement.optionalInt64(at: column) else { return }
        out.append(key)
        out.appendDigits(value)
    }

    /// The column's text as a quoted JSON string; nil (nothing written) when it is NULL.
    @discardableResult
    func string(_ column: Int32, _ out: inout ByteWriter) -> Void? {
        statement.withUTF8IfNotNull(at: column) { Self.quoted($0, &out) }
    }

    /// `text` as a quoted JSON string.
    static func quoted(_ text: UnsafeBufferPointer<UInt8>, _ out: inout ByteWriter) {
        guard !out.appendJSONString(text, asciiOnly: true) else { return }
        // Past ASCII: well-formed UTF-8 is written as it is; anything else is repaired first,
        // as `Statement.string(at:)` repairs it.
        if UTF8Validation.isValid(text) {
            out.appendJSONString(text)
            return
        }
        var repaired = String(decoding: text, as: UTF8.self)
        _ = repaired.withUTF8 { out.appendJSONString($0) }
    }
}
