import DiagForward
import DiagModel
import DiagStore
import Foundation
import Glibc
import Synchronization

/// Runs diagd in the foreground: takes the store, binds the socket, stops cleanly on SIGTERM or
/// SIGINT (everything queued is committed, exit 0). Returns the exit status.
public enum DaemonLauncher {
    public static func run(options: DaemonOptions) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        raiseDescriptorLimit()
        var options = options
        let descriptorNote = fitConnectionsToDescriptors(&options)
        // Signal handling is in place before the socket exists, so that no client (nor systemd)
        // can send SIGTERM while it is not: the default action is ignored and the sources set
        // the stop request, which `run` checks.
        let stopRequest = StopRequest()
        let sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stopRequest.request() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        let server: IngestServer
        let forwarding = ForwardingThreads(destinations: options.forwards)
        do {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: options.storeDirectory, isDirectory: &isDirectory), !isDirectory.boolValue {
                FileHandle.standardError.write(Data("diagd: error: --store \(options.storeDirectory) is a file; the store is a directory (\(StoreLayout.infoFile) and \(StoreLayout.chunkFolder)/), which diagd creates when it is missing\n".utf8))
                return 1
            }
            try FileManager.default.createDirectory(atPath: options.storeDirectory, withIntermediateDirectories: true)
            server = try IngestServer(options: options, forwarding: forwarding, stopRequest: stopRequest)
        } catch {
            FileHandle.standardError.write(Data("diagd: error: \(error)\n".utf8))
            return 1
        }
        // In diagd's log once the store is open: stderr and a record of its own.
        if let descriptorNote { server.logStartupProblem(descriptorNote) }
        // The forwards start once the store's lock is held, and follow what the writer commits.
        forwarding.start()
        server.run()
        forwarding.stop()
        return 0
    }

    /// Descriptors kept for everything but connections: the store (the open chunk, its
    /// checkpoint thread, the chunk being sealed or indexed, Info.json, the locks; three each for
    /// an SQLite connection in WAL mode), the listeners, the event loops, stdio; and per forward
    /// its socket and its reading connection. A fresh diagd holds about 20.
    static let reservedDescriptors = 64
    static let reservedDescriptorsPerForward = 8

    /// Lowers `--max-connections` (and an explicit per-user share) to what the descriptor limit
    /// leaves once the store and listeners have theirs, so that clients cannot take the
    /// descriptors the store needs to open its next chunk (it would then refuse writes, and
    /// syslog messages, which have no acknowledgement, would be lost). Returns what it did, for
    /// the log; nil when the limit leaves room for every connection allowed.
    static func fitConnectionsToDescriptors(_ options: inout DaemonOptions, limit: rlim_t? = nil) -> String? {
        var current = rlimit()
        guard let limit = limit ?? (getrlimit(Int32(RLIMIT_NOFILE.rawValue), &current) == 0 ? current.rlim_cur : nil),
              limit != rlim_t.max else { return nil }
        let reserved = reservedDescriptors + reservedDescriptorsPerForward * options.forwards.count
        let available = max(1, Int(clamping: limit) - reserved)
        guard options.maximumConnections > available else { return nil }
        let asked = options.maximumConnections
        options.maximumConnections = available
        if let perUser = options.maximumConnectionsPerUser, perUser > available { options.maximumConnectionsPerUser = available }
        return "the file descriptor limit is \(limit): --max-connections lowered from \(asked) to \(available), "
            + "keeping \(reserved) for the store, its listeners and forwards (raise the limit: ulimit -n, systemd's LimitNOFILE=)"
    }

    /// One descriptor per connection: the soft limit (often 1024) is raised to the hard one, so
    /// that `--max-connections` and not the limit decides how many clients are served.
    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// Set once to ask the server to stop; wakes what sleeps until then (the epoll loop).
public final class StopRequest: Sendable {
    private let flag = Atomic<Bool>(false)
    private let wakers = Mutex<[@Sendable () -> Void]>([])
    public init() {}
    public func request() {
        flag.store(true, ordering: .relaxed)
        for wake in wakers.withLock({ $0 }) { wake() }
    }
    public var isRequested: Bool { flag.load(ordering: .relaxed) }

    /// Calls `wake` on the request (at once when it was already made).
    func onRequest(_ wake: @escaping @Sendable () -> Void) {
        wakers.withLock { $0.append(wake) }
        if isRequested { wake() }
    }
}

extension IngestServer {
    /// Opens (or creates) the store in `options.storeDirectory` and prepares to listen.
    public convenience init(options: DaemonOptions, stopRequest: StopRequest = StopRequest()) throws {
        try self.init(options: options, forwarding: ForwardingThreads(destinations: []), stopRequest: stopRequest)
    }

    /// The same, with the forwards prepared over the store (they start with `forwarding.start()`).
    convenience init(options: DaemonOptions, forwarding: ForwardingThreads, stopRequest: StopRequest) throws {
        // The store is opened after the lock is taken, inside the designated initializer.
        try self.init(options: options, openStore: { report in
            let store = try ChunkedRecordStore(
                directory: options.storeDirectory, chunkSize: options.chunkSize, maximumSize: options.effectiveMaximumSize(),
                maximumAge: options.maximumAge, report: report)
            guard !forwarding.destinations.isEmpty else { return store }
            try forwarding.attach(store: store.store, report: report)
            return ForwardingRecordStore(store: store, forwarding: forwarding)
        }, makeStreamFilter: StreamFilters.make, stopRequest: stopRequest)
    }
}
