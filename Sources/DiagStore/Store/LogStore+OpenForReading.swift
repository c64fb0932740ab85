import Foundation

extension LogStore {
    /// Opens a store to read it, as `diag show`, `stats` and `explain` do: read-only, except that
    /// a store written by an older version is first upgraded in place (a writer's open migrates
    /// it, in batches), so that an old store simply reads. Where it cannot be upgraded (no write
    /// permission, another process appending) the error says so.
    public static func openForReading(at url: URL) throws -> LogStore {
        do {
            return try open(at: url, options: .readOnly)
        } catch let error as StoreError where error.kind == .readOnly {
            // Readers started together would otherwise migrate the same chunks at once (and
            // fail with "no such table: log"): one takes the writer lock and migrates, the
            // others wait for it and find, on looking again, nothing left to do.
            let lock = try WriterLock(storeURL: url, waiting: true)
            return try withExtendedLifetime(lock) {
                do {
                    return try open(at: url, options: .readOnly)
                } catch let error as StoreError where error.kind == .readOnly {
                    try open(at: url).close()
                    return try open(at: url, options: .readOnly)
                }
            }
        }
    }
}
