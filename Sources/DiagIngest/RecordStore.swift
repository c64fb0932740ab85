import DiagModel

/// What the writer thread needs from the log store. `LogStore` is the one implementation;
/// the protocol keeps the writer's loop apart from how chunks are kept.
protocol RecordStore: AnyObject {
    /// Appends the records in one transaction; when it returns they survive a crash of the process.
    func append(_ records: [LogRecord]) throws
    /// Drops whole oldest chunks over the size or age quota, and builds the indexes of closed
    /// chunks; `idle` says whether records are arriving now (index builds can wait for a lull).
    func maintain(idle: Bool) throws
    /// Commits what is open and closes the files.
    func close() throws
}
