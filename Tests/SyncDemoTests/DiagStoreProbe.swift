import DiagStore

/// A second connection to a sync core's store, to damage it behind the store's back.
struct DiagStoreProbe {
    let database: Database
    init(path: String) throws { database = try Database(path: path) }
    func execute(_ sql: String) throws { try database.execute(sql) }
}
