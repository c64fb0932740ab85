import Foundation

/// Which task a reading thread takes next: in order, never more than `window` ahead of the
/// task being consumed, so that the output waiting for the consumer stays bounded. Shared by
/// the parallel scans of `StoreRows` (NDJSON) and `StoreRowBlocks` (the pattern miner's rows).
final class TaskWindow: @unchecked Sendable {
    // Safe: every field is read and written with `condition` locked.
    private let condition = NSCondition()
    private var next = 0
    private var consumed = 0
    private var stopped = false
    private let count: Int
    private let window: Int

    init(count: Int, window: Int) {
        self.count = count
        self.window = window
    }

    /// The next task, once it is within the window; nil when none is left or the scan stopped.
    func take() -> Int? {
        condition.withLock {
            while !stopped, next < count, next >= consumed + window { condition.wait() }
            guard !stopped, next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func consuming(_ index: Int) {
        condition.withLock {
            consumed = index
            condition.broadcast()
        }
    }

    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
}
