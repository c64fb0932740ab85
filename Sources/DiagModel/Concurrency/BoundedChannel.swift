import Dispatch
import Synchronization

/// A bounded first-in first-out hand-over between threads: any number of senders and receivers,
/// at most `capacity` elements waiting, so that memory stays flat however fast the senders are.
///
/// `send` blocks while the channel is full, `receive` while it is empty (parked on
/// `ParkedThreads`, never polling). The senders end the stream with `finish(failure:)`: receivers
/// drain what waits, then get nil, or the failure thrown. A receiver that stops early calls
/// `cancel()`: what waits is dropped and every `send`, blocked or later, throws `ChannelClosed`.
/// `Sendable` without `@unchecked`: all its state is in a `Mutex`.
public final class BoundedChannel<Element: Sendable>: Sendable {
    public let capacity: Int
    private let state: Mutex<ChannelState<Element>>

    /// - Parameter capacity: elements waiting at most; 1 or more.
    public init(capacity: Int) {
        precondition(capacity >= 1, "a channel holds at least one element (capacity \(capacity))")
        self.capacity = capacity
        state = Mutex(ChannelState())
    }

    /// Adds `element`, waiting while `capacity` elements wait. Throws `ChannelClosed` once the
    /// receiver cancelled (also while blocked) or the channel was finished.
    public func send(_ element: Element) throws(ChannelClosed) {
        let capacity = capacity
        let closed = state.wait(on: \.senders) { state -> SendStep? in
            if let reason = state.closedReason { return .closed(reason) }
            guard state.buffer.count < capacity else { return nil }
            state.add(element)
            return .sent
        }
        if case .closed(let reason) = closed { throw ChannelClosed(reason: reason) }
    }

    /// Adds `element` if there is room now, without waiting.
    public func trySend(_ element: Element) -> TrySendOutcome {
        state.withLock { state in
            if let closed = state.closedReason { return closed == .cancelled ? .cancelled : .finished }
            guard state.buffer.count < capacity else { return .full }
            state.add(element)
            return .sent
        }
    }

    /// The oldest element, waiting while none is there; nil once the channel is finished and
    /// drained (or cancelled); throws the senders' failure after the elements sent before it.
    public func receive() throws -> Element? {
        switch try receive(until: .distantFuture) {
        case .element(let element): element
        case .ended, .timedOut: nil
        }
    }

    /// The same, giving up at `deadline` (`.timedOut`).
    public func receive(until deadline: DispatchTime) throws -> ReceiveOutcome<Element> {
        let outcome = state.wait(on: \.receivers, until: deadline) { state -> Result<Element?, any Error>? in
            if let element = state.take() { return .success(element) }
            if state.cancelled { return .success(nil) }
            guard state.finished else { return nil }
            if let failure = state.failure { return .failure(failure) }
            return .success(nil)
        }
        guard let outcome else { return .timedOut }
        return try outcome.get().map { .element($0) } ?? .ended
    }

    /// The senders are done: receivers drain what waits, then get nil, or `failure` thrown.
    /// Only the first call counts.
    public func finish(failure: (any Error)? = nil) {
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            state.failure = failure
            state.receivers.wakeAll()
            state.senders.wakeAll()
        }
    }

    /// The receiver stops: what waits is dropped, blocked and later senders throw
    /// `ChannelClosed`, blocked and later receivers get nil.
    public func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.buffer.removeAll()
            state.senders.wakeAll()
            state.receivers.wakeAll()
        }
    }

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Elements waiting now.
    public var count: Int { state.withLock { $0.buffer.count } }

    /// The most elements that ever waited at once (never above `capacity`).
    public var peakCount: Int { state.withLock { $0.peak } }

    /// Threads blocked in `send` now, and in `receive` (a stalled pipeline shows where it waits).
    public var blockedSenders: Int { state.withLock { $0.senders.count } }
    public var blockedReceivers: Int { state.withLock { $0.receivers.count } }
}

public enum TrySendOutcome: Sendable, Equatable {
    case sent, full, cancelled, finished
}

public enum ReceiveOutcome<Element: Sendable>: Sendable {
    case element(Element)
    /// Finished and drained, or cancelled.
    case ended
    case timedOut
}

/// Thrown to a sender once the channel no longer takes elements.
public struct ChannelClosed: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable { case cancelled, finished }
    public let reason: Reason

    public init(reason: Reason) {
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .cancelled: "the receiver cancelled the channel"
        case .finished: "the channel was finished before this send"
        }
    }
}

private enum SendStep: Sendable {
    case sent
    case closed(ChannelClosed.Reason)
}

private struct ChannelState<Element: Sendable>: Sendable {
    var buffer = RingBuffer<Element>()
    var finished = false
    var cancelled = false
    var failure: (any Error)?
    var peak = 0
    var senders = ParkedThreads()
    var receivers = ParkedThreads()

    var closedReason: ChannelClosed.Reason? {
        cancelled ? .cancelled : finished ? .finished : nil
    }

    mutating func add(_ element: Element) {
        buffer.append(element)
        peak = max(peak, buffer.count)
        receivers.wakeOne()
    }

    mutating func take() -> Element? {
        guard let element = buffer.popFirst() else { return nil }
        senders.wakeOne()
        return element
    }
}
