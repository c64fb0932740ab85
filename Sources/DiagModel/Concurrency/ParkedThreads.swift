import Dispatch
import Synchronization

/// The threads waiting for a change of a state kept in a `Mutex`: the one waiting mechanism of
/// the code base (`BoundedChannel` and every hand-over between threads are built on it).
///
/// `Mutex` has no condition variable. A thread that finds the state not yet as it needs parks on
/// a semaphore of its own, registered in the state in the same critical section in which it
/// looked; whoever changes the state wakes the registered semaphores. Since looking and
/// registering are one critical section, and a semaphore keeps a signal given before its wait, no
/// wake-up is lost, and nothing polls. A `DispatchSemaphore` rather than a futex through a C shim:
/// Dispatch is already in every process (Foundation links it), a semaphore blocks in the kernel
/// without spinning, and a wait with a deadline comes with it.
public struct ParkedThreads: Sendable {
    private var semaphores: [DispatchSemaphore] = []

    public init() {}

    /// How many threads are parked here now.
    public var count: Int { semaphores.count }

    /// Registers a new waiter; the caller waits on the semaphore once it has left the lock.
    mutating func park() -> DispatchSemaphore {
        let semaphore = DispatchSemaphore(value: 0)
        semaphores.append(semaphore)
        return semaphore
    }

    /// Wakes every parked thread: each looks at the state again.
    public mutating func wakeAll() {
        for semaphore in semaphores { semaphore.signal() }
        semaphores.removeAll(keepingCapacity: true)
    }

    /// Wakes the thread parked longest, if any. Enough where each change lets one waiter proceed
    /// (one item in, one slot out), provided a woken waiter that gives up takes one last look
    /// (`Mutex.wait(on:until:_:)` does).
    public mutating func wakeOne() {
        guard !semaphores.isEmpty else { return }
        semaphores.removeFirst().signal()
    }

    /// Removes a waiter whose deadline passed, so that no later change signals it.
    mutating func forget(_ semaphore: DispatchSemaphore) {
        if let index = semaphores.firstIndex(where: { $0 === semaphore }) { semaphores.remove(at: index) }
    }
}

extension Mutex where Value: Sendable {
    /// Runs `attempt` with the lock held until it returns a result, parking on the threads at
    /// `parked` in between (whoever changes what `attempt` looks at must wake them). Returns nil
    /// only when `deadline` passes first; `attempt` then takes one last look, so that a wake-up
    /// that came as the deadline passed is not lost.
    public borrowing func wait<Result: Sendable, Failure: Error>(
        on parked: WritableKeyPath<Value, ParkedThreads> & Sendable,
        until deadline: DispatchTime = .distantFuture,
        _ attempt: (inout Value) throws(Failure) -> Result?
    ) throws(Failure) -> Result? {
        while true {
            let step = try withLock { (state) throws(Failure) -> ParkingStep<Result> in
                if let result = try attempt(&state) { return .done(result) }
                return .park(state[keyPath: parked].park())
            }
            switch step {
            case .done(let result):
                return result
            case .park(let semaphore):
                guard semaphore.wait(timeout: deadline) == .timedOut else { continue }
                return try withLock { (state) throws(Failure) -> Result? in
                    state[keyPath: parked].forget(semaphore)
                    return try attempt(&state)
                }
            }
        }
    }
}

private enum ParkingStep<Result> {
    case done(Result)
    case park(DispatchSemaphore)
}
