import Foundation

extension LogStore {
    /// How long a reader waits for the writer lock of a store it must upgrade before it fails
    /// (`openForReading`): long enough for another reader's upgrade of a usual store, short of
    /// leaving a user at a silent prompt while a diagd appending holds the lock until it stops.
    public static let upgradeLockWait: Double = 10

    /// Opens a store to read it, as `diag show`, `stats` and `explain` do: read-only, except that
    /// a store written by an older version is first upgraded in place (a writer's open migrates
    /// it, in batches), so that an old store simply reads. Where it cannot be upgraded (no write
    /// permission; another process holding the writer lock for `lockWait` seconds, such as an
    /// older diagd appending) the error says so.
    public static func openForReading(at url: URL, lockWait: Double = upgradeLockWait) throws -> LogStore {
        do {
            return try open(at: url, options: .readOnly)
        } catch let error as StoreError where error.kind == .readOnly {
            // Readers started together would otherwise migrate the same chunks at once (and
            // fail with "no such table: log"): one takes the writer lock and migrates, the
            // others wait for it and find, on looking again, nothing left to do.
            let lock: WriterLock
            do {
                lock = try WriterLock(storeURL: url, waitingUpTo: lockWait)
            } catch let lockError as StoreError where lockError.kind == .locked {
                throw StoreError(.locked, path: error.path, reason: """
                    \(error.reason). It cannot be upgraded now: another process has held the store's \
                    writer lock (\(lockError.path)) for \(String(format: "%g", lockWait)) s, a diagd writing the \
                    store or another diag upgrading it. Let the upgrade finish, or stop that diagd, then read again
                    """)
            } catch let lockError as StoreError {
                throw StoreError(lockError.kind, path: error.path, reason: "\(error.reason). It cannot be upgraded here: \(lockError)")
            }
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
