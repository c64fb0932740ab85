import DiagModel
import DiagStore
import Foundation
import Synchronization

/// Which task a reading thread takes next: in order, while the blocks that the tasks taken and
/// not yet consumed may hold stay within `window × blocksPerTask`, so that the output waiting
/// for the consumer stays bounded. A task being read may hold `blocksPerTask` (its channel's
/// capacity); once finished (`finished`), what its channel still holds, until the consumer is
/// past it. Shared by the parallel scans of `StoreRows` (NDJSON) and `StoreRowBlocks` (the
/// pattern miner's rows).
///
/// Counting what a finished task holds, not the task, lets the threads run ahead over tasks
/// that select little: a condition over a whole store is cut into slices of about 8k records
/// (1,221 over 10M), most of them empty for a selective one (`messageType == fault`: 2,077
/// records), and a window of 3 tasks made each thread wait for the consumer at every slice:
/// 3,876 context switches for that query.
final class TaskWindow: Sendable {
    private struct State: Sendable {
        var next = 0
        var consumed = 0
        var stopped = false
        var readers = ParkedThreads()
        /// Blocks the tasks from `consumed` up to `next` may hold: `blocksPerTask` for each one
        /// still read, what it held when it finished for the others.
        var reserved = 0
        /// Each task's share of `reserved`.
        var held: [Int]
    }

    private let state: Mutex<State>
    private let blocksPerTask: Int
    private let budget: Int

    /// `window` tasks holding `blocksPerTask` blocks each at most.
    init(count: Int, window: Int, blocksPerTask: Int = 1) {
        self.blocksPerTask = max(1, blocksPerTask)
        budget = max(1, window) * self.blocksPerTask
        state = Mutex(State(held: Array(repeating: 0, count: max(0, count))))
    }

    /// The next task, once the blocks it may hold fit; nil when none is left or the scan stopped.
    func take() -> Int? {
        let (blocksPerTask, budget) = (blocksPerTask, budget)
        let task = state.wait(on: \.readers) { state -> Int?? in
            guard !state.stopped, state.next < state.held.count else { return .some(nil) }
            guard state.reserved + blocksPerTask <= budget else { return nil }
            defer { state.next += 1 }
            state.reserved += blocksPerTask
            state.held[state.next] = blocksPerTask
            return .some(state.next)
        }
        return task ?? nil
    }

    /// Reader side: task `index` is read to its end, and its channel holds `blocks` blocks.
    func finished(_ index: Int, holding blocks: Int) {
        state.withLock { state in
            // A task the consumer is already past gave its share back.
            guard index >= state.consumed, index < state.held.count else { return }
            let blocks = max(0, blocks)
            state.reserved += blocks - state.held[index]
            state.held[index] = blocks
            state.readers.wakeAll()
        }
    }

    /// Consumer side: the tasks before `index` are consumed (their blocks taken), and it goes
    /// on to `index`.
    func consuming(_ index: Int) {
        state.withLock { state in
            while state.consumed < index, state.consumed < state.held.count {
                state.reserved -= state.held[state.consumed]
                state.held[state.consumed] = 0
                state.consumed += 1
            }
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
        let schedule = TaskWindow(count: tasks.count, window: window, blocksPerTask: channelCapacity)
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
                        schedule.finished(index, holding: channels[index].count)
                        channels[index].finish(failure: nil)
                    } catch {
                        schedule.finished(index, holding: channels[index].count)
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
