@testable import DiagQuery
import Foundation
import Synchronization
import Testing

/// `TaskWindow`, the rule of the parallel scans: tasks are taken in order, never more than the
/// window ahead of the one consumed, and `stop` releases a reader waiting for the window.
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
        let outcome = Mutex<Int??>(.none)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let task = window.take()
            outcome.withLock { $0 = .some(task) }
            done.signal()
        }
        window.stop()
        done.wait()
        #expect(outcome.withLock { $0 } == .some(nil))
        #expect(window.take() == nil)
    }
}
