import DiagModel
import Dispatch
import Foundation
import Synchronization
import Testing

/// The one channel every hand-over between threads goes through: order, the bound, the wake-ups
/// of `finish` and `cancel`, failures, and no lost wake-up under load.
@Suite struct BoundedChannelTests {
    struct Broken: Error, Equatable { let code: Int }

    /// Runs `body` on `count` threads of their own (blocking work does not belong on Dispatch's
    /// pool) and returns a group that is done when they all are.
    private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread.detachNewThread {
                body(index)
                group.leave()
            }
        }
        return group
    }

    /// Waits (yielding the core) until `condition` holds: the tests look at who is blocked, never at the clock.
    private func until(_ condition: () -> Bool) {
        while !condition() { sched_yield() }
    }

    @Test func oneSenderOneReceiverKeepOrderWithinTheBound() throws {
        let channel = BoundedChannel<Int>(capacity: 3)
        let sender = onThreads(1) { _ in
            for value in 0..<20_000 { try! channel.send(value) }
            channel.finish()
        }
        var received: [Int] = []
        while let value = try channel.receive() {
            #expect(channel.count <= 3)
            received.append(value)
        }
        sender.wait()
        #expect(received == Array(0..<20_000))
        #expect(channel.peakCount <= 3)
        #expect(try channel.receive() == nil)
    }

    @Test func manySendersAndReceiversDeliverEachElementOnceInEachSendersOrder() throws {
        let senders = 6, receivers = 5, perSender = 5_000, capacity = 4
        let channel = BoundedChannel<[Int]>(capacity: capacity)
        let results = Mutex<[[[Int]]]>(Array(repeating: [], count: receivers))
        let receiving = onThreads(receivers) { index in
            var mine: [[Int]] = []
            while let element = try! channel.receive() { mine.append(element) }
            results.withLock { $0[index] = mine }
        }
        let sending = onThreads(senders) { sender in
            for sequence in 0..<perSender { try! channel.send([sender, sequence]) }
        }
        sending.wait()
        channel.finish()
        receiving.wait()
        let all = results.withLock { $0 }
        var seen = Array(repeating: [Int](), count: senders)
        for mine in all {
            var last = Array(repeating: -1, count: senders)
            for element in mine {
                #expect(element[1] > last[element[0]], "a receiver got sender \(element[0])'s elements out of order")
                last[element[0]] = element[1]
                seen[element[0]].append(element[1])
            }
        }
        for sender in 0..<senders { #expect(seen[sender].sorted() == Array(0..<perSender)) }
        #expect(channel.peakCount <= capacity)
        #expect(channel.peakCount >= 1)
    }

    @Test func cancelWakesEveryBlockedSenderWithClosed() throws {
        let channel = BoundedChannel<Int>(capacity: 1)
        try channel.send(0)
        let outcomes = Mutex<[ChannelClosed.Reason?]>([])
        let blocked = onThreads(3) { index in
            do {
                try channel.send(index + 1)
                outcomes.withLock { $0.append(nil) }
            } catch {
                let reason = (error as? ChannelClosed)?.reason
                outcomes.withLock { $0.append(reason) }
            }
        }
        until { channel.blockedSenders == 3 }
        channel.cancel()
        blocked.wait()
        #expect(outcomes.withLock { $0 } == [.cancelled, .cancelled, .cancelled])
        #expect(channel.count == 0, "cancel drops what waits")
        #expect(try channel.receive() == nil)
        #expect(channel.trySend(9) == .cancelled)
        #expect(throws: ChannelClosed(reason: .cancelled)) { try channel.send(9) }
    }

    @Test func finishWakesEveryBlockedReceiverWithTheEnd() {
        let channel = BoundedChannel<Int>(capacity: 2)
        let ends = Atomic<Int>(0)
        let blocked = onThreads(4) { _ in
            do { if try channel.receive() == nil { ends.add(1, ordering: .relaxed) } } catch {}
        }
        until { channel.blockedReceivers == 4 }
        channel.finish()
        blocked.wait()
        #expect(ends.load(ordering: .relaxed) == 4)
    }

    @Test func theSendersFailureComesAfterWhatWasSentBeforeItAndStays() throws {
        let channel = BoundedChannel<String>(capacity: 4)
        try channel.send("a")
        try channel.send("b")
        channel.finish(failure: Broken(code: 7))
        channel.finish(failure: Broken(code: 8))
        #expect(throws: ChannelClosed(reason: .finished)) { try channel.send("c") }
        #expect(channel.trySend("c") == .finished)
        #expect(try channel.receive() == "a")
        #expect(try channel.receive() == "b")
        #expect(throws: Broken(code: 7)) { try channel.receive() }
        #expect(throws: Broken(code: 7)) { try channel.receive() }
    }

    @Test func aFailureReachesABlockedReceiver() {
        let channel = BoundedChannel<Int>(capacity: 1)
        let caught = Mutex<Broken?>(nil)
        let blocked = onThreads(1) { _ in
            do { _ = try channel.receive() } catch { caught.withLock { $0 = error as? Broken } }
        }
        until { channel.blockedReceivers == 1 }
        channel.finish(failure: Broken(code: 3))
        blocked.wait()
        #expect(caught.withLock { $0 } == Broken(code: 3))
    }

    @Test func trySendNeverWaitsAndSaysWhenFull() throws {
        let channel = BoundedChannel<Int>(capacity: 2)
        #expect(channel.trySend(1) == .sent)
        #expect(channel.trySend(2) == .sent)
        #expect(channel.trySend(3) == .full)
        #expect(channel.count == 2)
        #expect(try channel.receive() == 1)
        #expect(channel.trySend(3) == .sent)
        #expect(try channel.receive() == 2)
        #expect(try channel.receive() == 3)
    }

    @Test func receiveWithADeadlineTimesOutOnAnEmptyChannelAndThenStillReceives() throws {
        let channel = BoundedChannel<Int>(capacity: 1)
        guard case .timedOut = try channel.receive(until: .now() + .milliseconds(20)) else {
            Issue.record("an empty channel gave something before the deadline")
            return
        }
        #expect(channel.blockedReceivers == 0, "a receiver that gave up is no longer parked")
        try channel.send(5)
        guard case .element(5) = try channel.receive(until: .now() + .seconds(60)) else {
            Issue.record("the element sent was not received")
            return
        }
        channel.finish()
        guard case .ended = try channel.receive(until: .now() + .seconds(60)) else {
            Issue.record("a finished channel did not say it ended")
            return
        }
    }

    /// Two threads pass one token back and forth through two channels of one slot, each side
    /// blocking on every turn: a single lost wake-up stops the loop for good.
    @Test func pingPongLosesNoWakeUp() throws {
        let there = BoundedChannel<Int>(capacity: 1), back = BoundedChannel<Int>(capacity: 1)
        let rounds = 20_000
        let echo = onThreads(1) { _ in
            while let value = try! there.receive() { try! back.send(value + 1) }
            back.finish()
        }
        var value = 0
        for _ in 0..<rounds {
            try there.send(value)
            value = try #require(try back.receive())
        }
        there.finish()
        echo.wait()
        #expect(value == rounds)
    }

    /// Many short-lived channels with senders, receivers and a cancel racing each other: every
    /// thread must come back, whatever the interleaving.
    @Test func racingSendReceiveFinishAndCancelAlwaysReturn() {
        for round in 0..<300 {
            let channel = BoundedChannel<Int>(capacity: 1 + round % 3)
            let received = Atomic<Int>(0)
            let receivers = onThreads(2) { _ in
                while (try? channel.receive()) != nil { received.add(1, ordering: .relaxed) }
            }
            let senders = onThreads(2) { _ in
                for value in 0..<50 { guard (try? channel.send(value)) != nil else { return } }
            }
            if round % 2 == 0 {
                senders.wait()
                channel.finish()
                receivers.wait()
                #expect(received.load(ordering: .relaxed) == 100)
            } else {
                channel.cancel()
                senders.wait()
                receivers.wait()
                #expect(channel.count == 0)
            }
        }
    }
}
