import DiagModel
import Foundation
import Glibc
import Synchronization

/// diagd: listens on the socket, serves its connections from one epoll loop and a few worker
/// threads (`SocketService`), and writes with one writer thread.
///
/// `run` returns after `stop` (SIGTERM, SIGINT), once every queued record is committed.
public final class IngestServer: Sendable {
    public let options: DaemonOptions
    private let context: IngestContext
    private let lock: Mutex<StoreLockHolder>
    private let socketPath: String
    private let listener: Mutex<ListenerHolder>
    private let stopRequest: StopRequest
    private let service: SocketService
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
        let listening = try ListeningSocket(path: options.socketPath, groupID: groupID)
        service = try SocketService(
            listening: listening.descriptor, context: context,
            quota: ConnectionQuota(maximum: options.maximumConnections, maximumPerUser: options.effectiveMaximumConnectionsPerUser))
        listener = Mutex(ListenerHolder(listening))
        lock = Mutex(StoreLockHolder(storeLock))
        let epoll = service.epoll
        stopRequest.onRequest { epoll.wake() }
    }

    /// A line in diagd's log (stderr and a record in the store) about what the launcher found
    /// before the store was open (`DaemonLauncher.fitConnectionsToDescriptors`).
    func logStartupProblem(_ message: String) {
        context.log.log(.error, message, category: "lifecycle")
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
        service.run(workers: options.workerThreads) { stopRequest.isRequested }
        SystemdNotifier.notify("STOPPING=1")
        listener.withLock { $0.socket?.close(); $0.socket = nil }
        service.shutDown()
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
