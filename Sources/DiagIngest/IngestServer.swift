import DiagModel
import Foundation
import Glibc
import Synchronization

/// diagd: listens on the socket, runs one thread per connection and one writer thread.
///
/// `run` returns after `stop` (SIGTERM, SIGINT), once every queued record is committed.
public final class IngestServer: Sendable {
    public let options: DaemonOptions
    private let context: IngestContext
    private let lock: Mutex<StoreLockHolder>
    private let socketPath: String
    private let listener: Mutex<ListenerHolder>
    private let stopRequest: StopRequest
    private let serials = Atomic<Int>(0)
    private let syslog: SyslogListeners
    private let listeners: [any IngestListener]

    /// Takes the store's lock, opens the store, and binds the socket; throws with a clear
    /// message when another daemon holds the store or listens on the socket.
    init(
        options: DaemonOptions,
        openStore: (@escaping @Sendable (MessageType, String) -> Void) throws -> any RecordStore,
        makeStreamFilter: @escaping @Sendable (String?) throws -> (@Sendable (LogRecord) -> Bool)?,
        stopRequest: StopRequest
    ) throws {
        self.options = options
        self.stopRequest = stopRequest
        // The lock comes first: a second daemon must not even open the store.
        let storeLock = try StoreLock(storeDirectory: options.storeDirectory)
        let levels = try LevelConfiguration(storeDirectory: options.storeDirectory)
        let queue = RecordQueue(capacity: options.queueCapacity)
        let log = DaemonLog(queue: queue)
        let report: @Sendable (MessageType, String) -> Void = { level, message in log.log(level, message, category: "store") }
        let counters = IngestCounters()
        let writer = StoreWriterThread(store: try openStore(report), queue: queue, counters: counters, report: report)
        context = IngestContext(
            queue: queue, ring: RecordRing(capacity: options.ringCapacity), levels: levels, counters: counters,
            writer: writer, log: log, makeStreamFilter: makeStreamFilter)
        // Bound before the main socket: a client that reaches that one finds these ready too.
        syslog = try SyslogListeners(options: options, context: context, stopRequest: stopRequest)
        let intake = RecordIntake(context: context, stopRequest: stopRequest)
        listeners = try options.listeners.map { try $0(intake) }
        // A bare name (`--socket d.sock`) lives in the current folder, which exists.
        let socketFolder = (options.socketPath as NSString).deletingLastPathComponent
        if !socketFolder.isEmpty {
            try FileManager.default.createDirectory(atPath: socketFolder, withIntermediateDirectories: true)
        }
        let groupID = try options.socketGroup.map(Self.groupID(named:))
        socketPath = options.socketPath
        listener = Mutex(ListenerHolder(try ListeningSocket(path: options.socketPath, groupID: groupID)))
        lock = Mutex(StoreLockHolder(storeLock))
    }

    /// Accepts clients until `stop`; then closes the socket, drains the queue and closes the store.
    public func run(onReady: () -> Void = {}) {
        context.writer.start()
        syslog.start()
        listeners.forEach { $0.start() }
        let summaries = ([syslog.summary] + listeners.map(\.summary)).filter { !$0.isEmpty }
        let also = summaries.isEmpty ? "" : "; " + summaries.joined(separator: ", ")
        context.log.log(.default, "diagd \(getpid()) accepting on \(socketPath), store \(options.storeDirectory)\(also)", category: "lifecycle")
        onReady()
        SystemdNotifier.notify("READY=1\nSTATUS=accepting on \(socketPath)")
        while !stopRequest.isRequested {
            guard let client = listener.withLock({ $0.socket?.accept(timeoutMilliseconds: 200) }) else { continue }
            accept(client)
        }
        SystemdNotifier.notify("STOPPING=1")
        listener.withLock { $0.socket?.close(); $0.socket = nil }
        context.hub.closeAll()
        syslog.waitUntilFinished()
        // Their requests in progress wait for commits: stopped while the writer still runs.
        listeners.forEach { $0.stop() }
        context.log.log(.default, "diagd \(getpid()) stopping: \(context.counters.json.compactText)", category: "lifecycle")
        context.writer.stop()
        context.writer.waitUntilFinished()
        lock.withLock { $0.lock = nil }
    }

    /// Asks `run` to finish; safe from any thread.
    public func stop() {
        stopRequest.request()
    }

    private func accept(_ descriptor: Int32) {
        let peer: PeerIdentity
        do {
            peer = try PeerIdentity.of(socket: descriptor)
        } catch {
            context.log.log(.error, "refused a client: \(error)")
            close(descriptor)
            return
        }
        let connection = Connection(descriptor: descriptor, peer: peer, serial: serials.wrappingAdd(1, ordering: .relaxed).newValue)
        if context.counters.openConnections.load(ordering: .relaxed) >= options.maximumConnections {
            connection.send(.object(["error": .string("diagd serves at most \(options.maximumConnections) connections at once; retry later")]))
            context.log.log(.error, "refused a connection from pid \(peer.processID) (\(peer.process ?? "?")): \(options.maximumConnections) connections are open", category: "connection")
            return
        }
        context.counters.add(context.counters.connections)
        // Counted here, not in the thread, so that a burst of connections cannot slip past the limit.
        context.counters.add(context.counters.openConnections)
        let handler = ConnectionHandler(connection: connection, context: context)
        let thread = Thread { handler.run() }
        thread.name = "diagd-connection-\(connection.serial)"
        thread.stackSize = 1 << 20
        thread.start()
    }

    private static func groupID(named name: String) throws -> gid_t {
        if let number = gid_t(name) { return number }
        guard let entry = getgrnam(name) else {
            throw IngestError("unknown group '\(name)' for the socket; give a group name from /etc/group or a numeric ID")
        }
        return entry.pointee.gr_gid
    }
}

/// Holders that let `Mutex` own the non-Sendable descriptor classes and release them at a known point.
struct ListenerHolder: ~Copyable {
    var socket: ListeningSocket?
    init(_ socket: ListeningSocket) { self.socket = socket }
}

struct StoreLockHolder: ~Copyable {
    var lock: StoreLock?
    init(_ lock: StoreLock) { self.lock = lock }
}
