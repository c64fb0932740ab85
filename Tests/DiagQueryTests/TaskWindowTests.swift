@testable import DiagQuery
import Foundation
import Synchronization
import Testing

/// `TaskWindow`, the rule of the parallel scans: tasks are taken in order, never more than the
/// window ahead of the one consumed while they may hold their whole share, a finished task
/// counts what it still holds, and `stop` releases a reader waiting for the window.
@Suite struct TaskWindowTests {
    /// Waits (yielding the core) until `condition` holds: the tests look at what was taken, not at the clock.
    private func until(_ condition: () -> Bool) {
        while !condition() { sched_yield() }
    }

    @Test func aReaderTakesTasksInOrderNeverMoreThanTheWindowAhead() {
        let count = 40, width = 3
        let window = TaskWindow(count: count, window: width)
        let taken = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while let task = window.take() { taken.withLock { $0.append(task) } }
            done.signal()
        }
        for consumed in 0..<count {
            window.consuming(consumed)
            until { taken.withLock { $0.count } >= min(consumed + width, count) }
            let now = taken.withLock { $0 }
            #expect(now.count <= consumed + width, "took \(now.count) tasks while task \(consumed) was consumed")
            #expect(now == Array(0..<now.count))
        }
        done.wait()
        #expect(taken.withLock { $0 } == Array(0..<count))
    }

    @Test func stopReleasesAReaderWaitingForTheWindow() {
        let window = TaskWindow(count: 10, window: 1)
        #expect(window.take() == 0)
        let pending = PendingTake(window)
        window.stop()
        #expect(pending.result(within: 5) == .some(nil))
        #expect(window.take() == nil)
    }

    /// `window.take()` on another thread: its task, or `.none` when it was still waiting after
    /// `seconds` (the window is then stopped, which releases it).
    private func take(_ window: TaskWindow, within seconds: Double = 5) -> Int?? {
        let pending = PendingTake(window)
        let result = pending.result(within: seconds)
        if result == nil {
            window.stop()
            _ = pending.result(within: 60)
        }
        return result
    }

    @Test func aFinishedTaskCountsTheBlocksItHoldsSoEmptyTasksLetTheReaderRunAhead() {
        // Two tasks of four blocks each.
        let window = TaskWindow(count: 20, window: 2, blocksPerTask: 4)
        #expect(take(window) == 0)
        #expect(take(window) == 1)
        // Both read to their end with nothing selected: the reader goes on while the consumer
        // is still at task 0 (a window of tasks stopped it here).
        window.finished(0, holding: 0)
        window.finished(1, holding: 0)
        #expect(take(window) == 2, "empty finished tasks hold no room")
        #expect(take(window) == 3)
        // Task 2 keeps its four blocks, task 3 three: 7 of 8, no room for a task being read.
        window.finished(2, holding: 4)
        window.finished(3, holding: 3)
        let pending = PendingTake(window)
        #expect(pending.result(within: 0.2) == nil, "a task was taken while 7 of 8 blocks were held")
        // The consumer past tasks 0 to 2: only task 3's three blocks are held.
        window.consuming(3)
        #expect(pending.result(within: 5) == .some(4))
        // A task finished after the consumer went past it is not counted again: with task 4
        // read empty, task 3's three blocks and task 5's four fit.
        window.finished(0, holding: 4)
        window.finished(4, holding: 0)
        #expect(take(window) == 5)
    }
}

/// `window.take()` started on another thread.
private final class PendingTake: Sendable {
    private let taken = Mutex<Int??>(.none)
    private let done = DispatchSemaphore(value: 0)

    init(_ window: TaskWindow) {
        Thread.detachNewThread { [self] in
            let task = window.take()
            taken.withLock { $0 = .some(task) }
            done.signal()
        }
    }

    /// Its task (nil when none was left or the window stopped), or `.none` while it still
    /// waits after `seconds`.
    func result(within seconds: Double) -> Int?? {
        guard done.wait(timeout: .now() + seconds) == .success else { return .none }
        done.signal()  // for the next call
        return taken.withLock { $0 }
    }
}
