/// The kinds of `BEGIN`: when the transaction takes its lock.
public enum TransactionKind: String, Sendable {
    case deferred = "DEFERRED"
    case immediate = "IMMEDIATE"
    case exclusive = "EXCLUSIVE"
}

extension Database {
    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func inTransaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        let result: T
        do {
            result = try body()
        } catch {
            // A failed statement may already have rolled back; ROLLBACK then fails harmlessly.
            if !isAutocommit { try? execute("ROLLBACK TRANSACTION") }
            throw error
        }
        do {
            try execute("COMMIT TRANSACTION")
        } catch {
            if !isAutocommit { try? execute("ROLLBACK TRANSACTION") }
            throw error
        }
        return result
    }
}
