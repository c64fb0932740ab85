import DiagModel
import Foundation
import Synchronization

/// Copies the open chunk's WAL into its file (a passive checkpoint) on a thread of its own, so
/// that the single writer's commits do not stop for it.
///
/// A checkpoint reads back every page the writer committed, writes it again into the chunk file
/// and syncs that file: in diagd's profile under load, about a quarter of the writer thread's
/// time. SQLite runs a passive checkpoint beside a writer (it copies the frames committed when
/// it starts), so it moves to this thread, with its own connection. Commits stay as durable as
/// they were: a commit is durable once in the WAL, checkpointed or not.
final class WALCheckpointer: @unchecked Sendable {
    // Safe: `database` is used by the checkpoint thread only, which closes it before `stop`
    // returns; the rest is in the Mutex.
    private var database: Database?

    private struct State: Sendable {
        var requested = false
        var working = false
        var stopping = false
        var running = true
        /// The last checkpoint's error, if it failed: `request` then says the thread is behind,
        /// and the writer checkpoints on its own connection instead (a checkpoint that fails
        /// only lets the WAL grow; the commits in it are as durable).
        var failure: String?
        /// The checkpoint thread waiting for a request, and `stop` waiting for the thread's end.
        var parked = ParkedThreads()
    }

    private let state = Mutex(State())

    /// Opens a connection of its own to the chunk at `path` and starts the thread.
    init(path: String) throws {
        database = try Database(path: path)
        let thread = Thread { [self] in
            ThreadName.setCurrent("diag-checkpoint")
            run()
        }
        thread.start()
    }

    /// Asks for a checkpoint. False when the one asked for before has not finished yet: the
    /// thread is behind (starved of CPU, or a checkpoint failed), and the caller may checkpoint
    /// itself so that the WAL stays bounded.
    func request() -> Bool {
        state.withLock { state in
            let behind = state.requested || state.working || state.failure != nil
            state.requested = true
            state.parked.wakeAll()
            return !behind
        }
    }

    /// Waits for the checkpoint under way (if any) to end, and takes back a request the thread
    /// has not begun: the caller is to checkpoint itself in its place (the two would only fail
    /// on each other's lock), and a failure of the thread's is forgotten, so that the next
    /// request is the thread's again.
    func waitUntilIdle() {
        _ = state.wait(on: \.parked) { state -> Void? in
            if state.working { return nil }
            state.requested = false
            state.failure = nil
            return ()
        }
    }

    /// Ends the thread after the checkpoint under way (if any) and waits for it; the thread
    /// closes its connection first. (Closed when the thread let this value go, the connection
    /// could outlive `LogStore.close()` by as long as the thread took to end; once, under the full
    /// test run's load, ReadOnlyPlaceTests' remount of the store's file system read-only failed
    /// with EBUSY, which a file still open for writing there gives.)
    func stop() {
        state.withLock { state in
            state.stopping = true
            state.parked.wakeAll()
        }
        _ = state.wait(on: \.parked) { $0.running ? nil : () }
    }

    private func run() {
        while true {
            let checkpoint = state.wait(on: \.parked) { state -> Bool? in
                if state.stopping { return false }
                guard state.requested else { return nil }
                state.requested = false
                state.working = true
                return true
            } ?? false
            guard checkpoint else {
                database = nil
                state.withLock { state in
                    state.running = false
                    state.parked.wakeAll()
                }
                return
            }
            var outcome: String?
            do {
                try database?.execute("PRAGMA wal_checkpoint(PASSIVE)")
            } catch {
                outcome = "\(error)"
            }
            state.withLock { state in
                state.working = false
                state.failure = outcome
                state.parked.wakeAll()
            }
        }
    }
}
