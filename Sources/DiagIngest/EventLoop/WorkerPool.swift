import DiagModel
import Foundation
import Glibc
import Synchronization

/// The few threads that serve turns of what an epoll loop watches (diagd's connections, the
/// syslog sockets): read, frame and parse, answer requests. A thing is queued at most once at a
/// time (its turn: one-shot registrations), so the queue is bounded by the number of things
/// watched. Workers sleep on a semaphore: no timed waits.
final class WorkerPool<Served: Sendable>: Sendable {
    let threadCount: Int
    private let queue = Mutex(TurnQueue<Served>())
    private let available = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let exited = DispatchSemaphore(value: 0)

    /// `serve` runs on a worker with that worker's own read buffer; threads are named
    /// `name-0`, `name-1`… (the kernel keeps 15 bytes of a thread's name).
    init(threadCount: Int, readSize: Int, name: String, serve: @escaping @Sendable (Served, UnsafeMutableRawBufferPointer) -> Void) {
        self.threadCount = threadCount
        for index in 0..<threadCount {
            let threadName = "\(name)-\(index)"
            let thread = Thread { [self] in
                ThreadName.setCurrent(threadName)
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 16)
                defer { buffer.deallocate(); exited.signal() }
                while let served = next() { serve(served, buffer) }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    func submit(_ served: Served) {
        queue.withLock { $0.push(served) }
        available.signal()
    }

    /// Lets every worker finish its turn and exit.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        for _ in 0..<threadCount { available.signal() }
    }

    /// `stop`, then waits until every worker has left its turn (before the served things'
    /// descriptors close).
    func stopAndWait() {
        stop()
        for _ in 0..<threadCount { exited.wait() }
    }

    private func next() -> Served? {
        while true {
            available.wait()
            if stopping.load(ordering: .relaxed) { return nil }
            let served = queue.withLock { $0.pop() }
            if let served { return served }
        }
    }
}

/// First in, first out, without moving the queue on every pop.
private struct TurnQueue<Item> {
    private var items: [Item] = []
    private var head = 0

    mutating func push(_ item: Item) { items.append(item) }

    mutating func pop() -> Item? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: items.capacity <= 4096)
            head = 0
        }
        return item
    }
}
