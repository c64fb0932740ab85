import DiagModel
import DiagStore
import Foundation
import Synchronization

/// Which task a reading thread takes next: in order, never more than `window` ahead of the
/// task being consumed, so that the output waiting for the consumer stays bounded. Shared by
/// the parallel scans of `StoreRows` (NDJSON) and `StoreRowBlocks` (the pattern miner's rows).
final class TaskWindow: Sendable {
    private struct State: Sendable {
        var next = 0
        var consumed = 0
        var stopped = false
        var readers = ParkedThreads()
    }

    private let state = Mutex(State())
    private let count: Int
    private let window: Int

    init(count: Int, window: Int) {
        self.count = count
        self.window = window
    }

    /// The next task, once it is within the window; nil when none is left or the scan stopped.
    func take() -> Int? {
        let (count, window) = (count, window)
        let task = state.wait(on: \.readers) { state -> Int?? in
            guard !state.stopped, state.next < count else { return .some(nil) }
            guard state.next < state.consumed + window else { return nil }
            defer { state.next += 1 }
            return .some(state.next)
        }
        return task ?? nil
    }

    func consuming(_ index: Int) {
        state.withLock { state in
            state.consumed = index
            state.readers.wakeAll()
        }
    }

    func stop() {
        state.withLock { state in
            state.stopped = true
            state.readers.wakeAll()
        }
    }
}

/// Tasks of chunk parts read on several threads, their blocks handed to the consumer in task
/// order, so the output is the one of a single thread: task i's blocks go through channel i
/// (at most `channelCapacity` blocks), and a thread takes a task only within `TaskWindow`'s
/// window of the one being consumed, so memory stays at `window × channelCapacity` blocks
/// however large a task is. Each thread makes its own `Worker` (formatting state, a zone
/// cache…) and its own chunk connections. `Worker` must not be a bare closure type: passed
/// `inout` through this generic code, a closure comes back wrapped in one more reabstraction
/// thunk each task (wrap it in a struct, as `ZoneOffset` does).
struct OrderedParallelParts<Block: Sendable, Worker> {
    let tasks: [[RecordCursorPart]]
    let threads: Int
    let window: Int
    let channelCapacity: Int
    /// Chunk connections each thread keeps open for its next task (`ChunkConnections`): 2 for
    /// time slices, which come back to a chunk; 1 where every task is another chunk.
    var keptConnections = 2

    func run(
        makeWorker: @escaping @Sendable () -> Worker,
        read: @escaping @Sendable (inout Worker, RecordCursor, (Block) throws -> Void) throws -> Void,
        consume: (Block) throws -> Void
    ) throws {
        let channels = tasks.map { _ in BatchChannel<Block>(capacity: channelCapacity) }
        let schedule = TaskWindow(count: tasks.count, window: window)
        let group = DispatchGroup()
        let (tasks, keptConnections) = (tasks, keptConnections)
        for _ in 0..<min(threads, tasks.count) {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var worker = makeWorker()
                let connections = ChunkConnections(capacity: keptConnections)
                while let index = schedule.take() {
                    do {
                        for part in tasks[index] {
                            try read(&worker, part.open(connections: connections)) { block in
                                var batch = [block]
                                try channels[index].put(&batch)
                            }
                        }
                        channels[index].finish(failure: nil)
                    } catch {
                        channels[index].finish(failure: error is BatchChannelCancelled ? nil : error)
                    }
                }
            }
        }
        defer {
            schedule.stop()
            for channel in channels { channel.cancel() }
            group.wait()
        }
        for (index, channel) in channels.enumerated() {
            schedule.consuming(index)
            while let batch = try channel.take() {
                for block in batch { try consume(block) }
            }
        }
    }
}
