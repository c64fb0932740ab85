import Foundation

/// Copies the open chunk's WAL into its file (a passive checkpoint) on a thread of its own, so
/// that the single writer's commits do not stop for it.
///
/// A checkpoint reads back every page the writer committed, writes it again into the chunk file
/// and syncs that file: in diagd's profile under load, about a quarter of the writer thread's
/// time. SQLite runs a passive checkpoint beside a writer (it copies the frames committed when
/// it starts), so it moves to this thread, with its own connection. Commits stay as durable as
/// they were: a commit is durable once in the WAL, checkpointed or not.
final class WALCheckpointer: @unchecked Sendable {
    // Safe: `database` is used by the checkpoint thread only, until `stop` returns; the rest
    // only with `condition` locked.
    private let database: Database
    private let condition = NSCondition()
    private var requested = false
    private var working = false
    private var stopping = false
    private var running = true
    private var failure: String?

    /// Opens a connection of its own to the chunk at `path` and starts the thread.
    init(path: String) throws {
        database = try Database(path: path)
        let thread = Thread { [self] in run() }
        thread.name = "diag-checkpoint"
        thread.start()
    }

    /// Asks for a checkpoint. False when the one asked for before has not finished yet: the
    /// thread is behind (starved of CPU, or a checkpoint failed), and the caller may checkpoint
    /// itself so that the WAL stays bounded.
    func request() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let behind = requested || working || failure != nil
        requested = true
        condition.signal()
        return !behind
    }

    /// Why the last checkpoint failed, if it did (a checkpoint that succeeds clears it).
    var lastFailure: String? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    /// Ends the thread after the checkpoint under way (if any) and waits for it; the connection
    /// closes with this value.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        while running { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while !requested && !stopping { condition.wait() }
            if stopping {
                running = false
                condition.broadcast()
                condition.unlock()
                return
            }
            requested = false
            working = true
            condition.unlock()
            var outcome: String?
            do {
                try database.execute("PRAGMA wal_checkpoint(PASSIVE)")
            } catch {
                outcome = "\(error)"
            }
            condition.lock()
            working = false
            failure = outcome
            condition.broadcast()
            condition.unlock()
        }
    }
}
