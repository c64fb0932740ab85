import Foundation
import Glibc
import Synchronization

/// The few threads that serve connection turns: read, frame and parse lines, answer requests.
/// A connection is queued at most once at a time (its turn), so the queue is bounded by the
/// number of connections. Workers sleep on a semaphore: no timed waits.
final class WorkerPool: Sendable {
    let threadCount: Int
    private let queue = Mutex(TurnQueue())
    private let available = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)

    /// `serve` runs on a worker with that worker's own read buffer.
    init(threadCount: Int, readSize: Int, serve: @escaping @Sendable (Connection, UnsafeMutableRawBufferPointer) -> Void) {
        self.threadCount = threadCount
        for index in 0..<threadCount {
            let thread = Thread { [self] in
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 16)
                defer { buffer.deallocate() }
                while let connection = next() { serve(connection, buffer) }
            }
            thread.name = "diagd-worker-\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    func submit(_ connection: Connection) {
        queue.withLock { $0.push(connection) }
        available.signal()
    }

    /// Lets every worker finish its turn and exit.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        for _ in 0..<threadCount { available.signal() }
    }

    private func next() -> Connection? {
        while true {
            available.wait()
            if stopping.load(ordering: .relaxed) { return nil }
            let connection = queue.withLock { $0.pop() }
            if let connection { return connection }
        }
    }
}

/// First in, first out, without moving the queue on every pop.
private struct TurnQueue {
    private var items: [Connection] = []
    private var head = 0

    mutating func push(_ connection: Connection) { items.append(connection) }

    mutating func pop() -> Connection? {
        guard head < items.count else { return nil }
        let connection = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: items.capacity <= 4096)
            head = 0
        }
        return connection
    }
}
