import DiagModel

/// What the writer thread needs from the log store. `LogStore` is the one implementation;
/// the protocol keeps the writer's loop apart from how chunks are kept.
protocol RecordStore: AnyObject {
    /// Appends the records (packed rows) in one transaction; when it returns they survive a
    /// crash of the process.
    func append(_ records: PackedRecords) throws
    /// Drops whole oldest chunks over the size or age quota, and builds the indexes of closed
    /// chunks; `idle` says whether records are arriving now.
    func maintain(idle: Bool) throws
    /// Whether maintenance has work left once records stop (closed chunks to seal or index):
    /// the writer then keeps its one-second maintenance beat; otherwise it sleeps.
    var needsMaintenance: Bool { get }
    /// How often an idle store must still be looked at (records ageing past `--max-age`); nil
    /// when only new records change anything, so an idle daemon does not wake at all.
    var idleCheckInterval: Double? { get }
    /// Commits what is open and closes the files.
    func close() throws
}
