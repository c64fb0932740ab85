import DiagModel

/// What the writer thread needs from the log store. `LogStore` is the one implementation;
/// the protocol keeps the writer's loop apart from how chunks are kept.
protocol RecordStore: AnyObject {
    /// Appends records in one transaction; when it returns they survive a crash of the process.
    func append(_ records: [LogRecord]) throws
    /// Seals the open chunk when it is over its size bound, and drops whole oldest chunks
    /// over the size or age quota.
    func maintain() throws
    /// Commits what is open and closes the files.
    func close() throws
}
