import DiagModel

/// The row a `RecordCursor` is on: readable as a record, as its message alone, or straight
/// as NDJSON, without decoding the fields a reader does not need. Valid until the cursor moves.
public struct StoredRow {
    let reader: ChunkReader

    /// Nanoseconds since the epoch.
    public var timestamp: Int64 { reader.timestamp }

    /// The whole record.
    public func record() throws -> LogRecord {
        try reader.record()
    }

    /// The record with only the fields the text styles' lines show (time, level and kind,
    /// process and its ID, sender, subsystem, category, thread, activity, message), checked as
    /// `record()` checks them; the image paths, format string, signpost fields, trace and parent
    /// IDs, receipt time and metadata are nil, not read (a line shows none of them).
    public func lineRecord() throws -> LogRecord {
        try RecordRow.decodeLineFields(reader.statement, chunk: reader.path)
    }

    /// `eventMessage`'s bytes as stored (empty for NULL), valid inside `body`:
    /// `record().eventMessage` is `String(decoding:as:)` of them.
    public func withMessageUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try reader.statement.withUTF8(at: 17, body)
    }

    /// Appends the record's JSON, the bytes `record().writeJSON(to:offsetSeconds:)` writes;
    /// `scratch` (one per thread, kept across rows) is where the row is put together.
    public func appendJSON(offsetSeconds: Int, to bytes: inout [UInt8], scratch: inout ByteWriter) throws {
        try RecordRow.appendJSON(reader.statement, chunk: reader.path, offsetSeconds: offsetSeconds, to: &bytes, scratch: &scratch)
    }
}

@available(*, unavailable)
extension StoredRow: Sendable {}
