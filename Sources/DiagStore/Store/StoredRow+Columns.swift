import DiagModel

/// The few columns a reader that does not need the whole record reads (the pattern miner:
/// level, process, subsystem and message), straight from the row, without decoding the rest.
extension StoredRow {
    /// `messageType`, checked as `record()` checks it: a value no record holds is refused with
    /// an error naming the chunk, the row id and the accepted values.
    public func messageType() throws -> MessageType {
        try RecordRow.messageType(reader.statement, chunk: reader.path)
    }

    /// `process`'s bytes as stored (nil for NULL), valid inside `body`.
    public func withProcessUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows -> Result {
        try reader.statement.withTextBytes(at: 5, body)
    }

    /// `subsystem`'s bytes as stored (nil for NULL), valid inside `body`.
    public func withSubsystemUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows -> Result {
        try reader.statement.withTextBytes(at: 11, body)
    }
}
