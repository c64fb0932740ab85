@testable import DiagIngest
import DiagModel
import DiagProtocol
import Foundation
import Synchronization
import Testing
import TestSupport

/// A peer in memory: keeps the replies a session sends until the test reads them, as a socket
/// keeps them until the client reads (what paces ring dumps and streams).
final class MemoryPeer: ReplySink {
    private let unread = Mutex<[UInt8]>([])
    let turnsAsked = Atomic<Int>(0)

    func send(bytes: [UInt8]) { unread.withLock { $0.append(contentsOf: bytes) } }
    var pendingReplyBytes: Int { unread.withLock { $0.count } }
    func requestTurn() { turnsAsked.wrappingAdd(1, ordering: .relaxed) }

    /// Takes every reply line sent so far; each must read as a `DaemonReply`, as clients read it.
    func readLines() -> [[String: JSONValue]] {
        let bytes = unread.withLock { bytes in defer { bytes = [] }; return bytes }
        return bytes.split(separator: UInt8(ascii: "\n")).map { line in
            do {
                _ = try DaemonReply.parse(Array(line))
            } catch {
                Issue.record("not a reply clients read: \(error): \(String(decoding: line.prefix(200), as: UTF8.self))")
            }
            guard let members = try? JSONReader.parseObject(Array(line)) else {
                Issue.record("not a JSON object: \(String(decoding: line, as: UTF8.self))")
                return [:]
            }
            return members
        }
    }
}

/// A real context (queue, ring, levels, counters, a store that is never written) whose queue the
/// test drains as the writer would, answering the syncs as if their records were committed.
struct SessionBench {
    let directory: TemporaryDirectory
    let context: IngestContext
    static let peer = DiagIngest.PeerIdentity(processID: 4242, userID: 1000, groupID: 1000, process: "client", processImagePath: "/usr/bin/client")

    init() throws {
        directory = try TemporaryDirectory("session")
        let queue = RecordQueue(capacity: 1_000_000)
        let counters = IngestCounters()
        let report: @Sendable (MessageType, String) -> Void = { _, _ in }
        let store = try ChunkedRecordStore(
            directory: directory.file("store").path, chunkSize: 64 << 20, maximumSize: 1 << 30, maximumAge: nil, report: report)
        context = IngestContext(
            queue: queue, ring: RecordRing(capacity: 1000), levels: try LevelConfiguration(storeDirectory: directory.url.path),
            counters: counters, writer: StoreWriterThread(store: store, queue: queue, counters: counters, report: report),
            log: DaemonLog(queue: queue), makeStreamFilter: StreamFilters.make)
    }

    func session(_ peer: MemoryPeer) -> RequestSession {
        RequestSession(peer: Self.peer, sink: peer, context: context)
    }

    /// What the writer would take now: the queued records (the daemon's own log records left
    /// out), after which the syncs taken with them are answered.
    func drain() -> [LogRecord] {
        guard let drain = context.queue.take(waitSeconds: 0) else { return [] }
        for sync in drain.syncs { sync.reply() }
        return drain.records.filter { $0.process != "diagd" }
    }
}

@Suite struct RequestSessionTests {
    static func recordLine(_ index: Int, type: String = "Default") -> String {
        "{\"timestamp\":\(1_700_000_000_000_000_000 + index),\"messageType\":\"\(type)\",\"subsystem\":\"com.example.s\",\"eventMessage\":\"record \(index) é\",\"process\":\"liar\",\"processID\":1}\n"
    }

    /// Feeds `input` cut at the given offsets.
    static func feed(_ input: [UInt8], cuts: [Int], into session: inout RequestSession) {
        var start = 0
        for cut in cuts.sorted() + [input.count] where cut > start {
            input[start..<cut].withUnsafeBytes { session.receive($0) }
            start = cut
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func linesCutAnywhereGiveTheSameRecordsAndReplies(seed: Int) throws {
        var text = ""
        for index in 0..<40 { text += Self.recordLine(index) }
        text += "{\"sync\":1}\r\n"
        text += "not json\n\n"
        for index in 40..<60 { text += Self.recordLine(index) }
        text += "{\"stats\":true}\n{\"sync\":\"two\"}\n"
        let input = Array(text.utf8)
        var picker = SeededPicker(state: UInt64(seed))
        let cuts = (0..<(seed * 7)).map { _ in picker.int(input.count) } + (seed == 1 ? Array(0..<input.count) : [])

        let bench = try SessionBench()
        let peer = MemoryPeer()
        var session = bench.session(peer)
        Self.feed(input, cuts: cuts, into: &session)
        let records = bench.drain()
        #expect(records.map(\.eventMessage) == (0..<60).map { "record \($0) é" })
        // The kernel's identity, not the client's claim.
        #expect(records.allSatisfy { $0.processID == 4242 && $0.process == "client" && $0.userID == 1000 })
        let replies = peer.readLines()
        #expect(replies.count == 4)
        #expect(replies[0]["error"]?.stringValue != nil && replies[0]["line"]?.int64Value == 42)
        #expect(replies[1]["stats"] != nil)
        #expect(replies[2]["synced"]?.int64Value == 1)
        #expect(replies[3]["synced"]?.stringValue == "two")
        #expect(session.invalidLines == 1 && session.firstRefusal?.hasPrefix("line 42:") == true)
    }

    @Test func aLastLineWithoutNewlineCountsAtTheEndOfInput() throws {
        let bench = try SessionBench()
        let peer = MemoryPeer()
        var session = bench.session(peer)
        var line = Array(Self.recordLine(7).utf8)
        line.removeLast()
        Self.feed(line, cuts: [5, 60], into: &session)
        #expect(bench.drain().isEmpty)
        session.endOfInput()
        #expect(bench.drain().map(\.eventMessage) == ["record 7 é"])
        #expect(session.isClosed)
    }

    @Test func aLineOverTheLimitIsRefusedAndTheNextOneServed() throws {
        let bench = try SessionBench()
        let peer = MemoryPeer()
        var session = bench.session(peer)
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: LineFramer.defaultMaximumLength + 10) + [UInt8(ascii: "\n")]
        let input = long + Array(Self.recordLine(1).utf8)
        Self.feed(input, cuts: [1000, 700_000, long.count - 1, long.count + 3], into: &session)
        #expect(bench.drain().map(\.eventMessage) == ["record 1 é"])
        let replies = peer.readLines()
        #expect(replies.count == 1)
        #expect(replies.first?["line"]?.int64Value == 1)
        #expect(replies.first?["error"]?.stringValue?.contains("at most \(LineFramer.defaultMaximumLength) bytes") == true)
    }

    /// The dump goes on only while the peer reads it; the lines after the request wait for its end.
    @Test func aRingDumpIsPacedByThePeerAndTheLinesAfterItWait() throws {
        let bench = try SessionBench()
        let peer = MemoryPeer()
        var session = bench.session(peer)
        // Debug records go to the ring only, by default.
        var text = ""
        for index in 0..<1000 { text += Self.recordLine(index, type: "Debug").replacingOccurrences(of: "record ", with: String(repeating: "r", count: 600)) }
        text += "{\"ring\":true}\n" + Self.recordLine(5000) + "{\"sync\":9}\n"
        Self.feed(Array(text.utf8), cuts: [], into: &session)
        #expect(!session.readsInput)
        session.resume()
        var dumped = peer.readLines()
        #expect(dumped.count < 1000, "the first turn stops near \(RequestSession.replyThreshold) unread bytes")
        #expect(bench.drain().isEmpty, "the record after the ring request waits for the dump")
        for _ in 0..<100 where !session.readsInput {
            session.resume()
            dumped += peer.readLines()
        }
        #expect(session.readsInput)
        #expect(dumped.count == 1001)
        #expect(dumped.last?["end"]?.int64Value == 1000)
        #expect(bench.drain().map(\.eventMessage) == ["record 5000 é"])
        #expect(peer.readLines().compactMap { $0["synced"]?.int64Value } == [9])
    }

    @Test func aStreamSendsWhatOtherSessionsReceive() throws {
        let bench = try SessionBench()
        let watcher = MemoryPeer()
        var stream = bench.session(watcher)
        Self.feed(Array("{\"subscribe\":{}}\n{\"sync\":1}\n".utf8), cuts: [3], into: &stream)
        #expect(stream.isStreaming)
        #expect(watcher.readLines().first?["subscribed"] != nil)

        let sender = MemoryPeer()
        var session = bench.session(sender)
        Self.feed(Array((Self.recordLine(1) + Self.recordLine(2)).utf8), cuts: [10], into: &session)
        #expect(watcher.turnsAsked.load(ordering: .relaxed) >= 1)
        stream.resume()
        #expect(watcher.readLines().compactMap { $0["eventMessage"]?.stringValue } == ["record 1 é", "record 2 é"])
        stream.endOfInput()
        #expect(stream.isClosed && bench.context.hub.isEmpty)
    }

    @Test func aStreamWithABadPredicateIsRefusedAndCloses() throws {
        let bench = try SessionBench()
        let peer = MemoryPeer()
        var session = bench.session(peer)
        Self.feed(Array("{\"subscribe\":{\"predicate\":\"message ==\"}}\n".utf8), cuts: [], into: &session)
        #expect(session.isClosed)
        #expect(peer.readLines().first?["error"]?.stringValue?.contains("invalid predicate") == true)
        #expect(bench.context.hub.isEmpty)
    }
}

@Suite struct ConnectionQuotaTests {
    @Test func oneUserCannotTakeEverySlot() throws {
        let quota = ConnectionQuota(maximum: 3, maximumPerUser: 2)
        try quota.admit(userID: 1000)
        try quota.admit(userID: 1000)
        #expect(throws: ConnectionQuota.Refusal.self) { try quota.admit(userID: 1000) }
        do { try quota.admit(userID: 1000) } catch {
            #expect(error.description.contains("at most 2 connections per user") && error.description.contains("uid 1000"))
        }
        // Another user still gets the slot that is left.
        try quota.admit(userID: 1001)
        do { try quota.admit(userID: 1002); Issue.record("over the total") } catch {
            #expect(error.description.contains("at most 3 connections at once"))
        }
        quota.release(userID: 1000)
        #expect(quota.open() == 2 && quota.open(userID: 1000) == 1)
        try quota.admit(userID: 1002)
        // A release of a user with nothing open changes nothing.
        quota.release(userID: 5)
        #expect(quota.open() == 3)
    }
}
