import DiagForward
import Foundation

/// How diagd runs: where it keeps records, where it listens, and its bounds.
public struct DaemonOptions: Sendable {
    public var storeDirectory: String
    public var socketPath: String
    /// The group that may connect (the socket is mode 0660); nil keeps the daemon's group.
    public var socketGroup: String?
    /// The store's size quota in bytes; nil means 10% of the file system, at most 4 GiB.
    public var maximumSize: Int64?
    /// Records older than this many seconds are dropped, a whole chunk at a time.
    public var maximumAge: Int64?
    /// A chunk is sealed and a new one started past this many bytes.
    public var chunkSize: Int64
    /// Records the writer holds back from the connections before they wait (back-pressure).
    public var queueCapacity: Int
    /// Records the memory ring keeps.
    public var ringCapacity: Int
    /// Connections served at once; more are refused with an error line.
    public var maximumConnections: Int = 1024
    /// Connections one user (UID) may have open at once, so that one local user cannot take
    /// every slot; nil means three quarters of `maximumConnections` (all of them below four).
    public var maximumConnectionsPerUser: Int?
    /// Threads that read, frame and parse the socket's lines (the epoll loop hands them turns).
    public var workerThreads: Int = DaemonOptions.defaultWorkerThreads
    /// Where committed records are forwarded (store-and-forward, one thread and cursor each).
    public var forwards: [ForwardDestination] = []
    /// `--syslog-socket`: a Unix datagram socket taking syslog messages, like `/dev/log`.
    public var syslogSocketPath: String?
    /// `--syslog-tcp`: `HOST:PORT` or `PORT` (loopback) for syslog over TCP (RFC 6587).
    public var syslogTCP: String?
    /// Listeners made outside this target (`--otlp-http`), bound when the server is made.
    public var listeners: [IngestListenerFactory] = []

    public init(
        storeDirectory: String, socketPath: String, socketGroup: String? = nil, maximumSize: Int64? = nil,
        maximumAge: Int64? = nil, chunkSize: Int64 = 64 << 20, queueCapacity: Int = 64_000, ringCapacity: Int = 10_000
    ) {
        self.storeDirectory = storeDirectory
        self.socketPath = socketPath
        self.socketGroup = socketGroup
        self.maximumSize = maximumSize
        self.maximumAge = maximumAge
        self.chunkSize = chunkSize
        self.queueCapacity = queueCapacity
        self.ringCapacity = ringCapacity
    }

    /// Two to four: parsing on more than one thread, without a thread per core on big machines
    /// (the single writer is the limit beyond that).
    public static var defaultWorkerThreads: Int { min(4, max(2, ProcessInfo.processInfo.activeProcessorCount)) }

    public var effectiveMaximumConnectionsPerUser: Int {
        maximumConnectionsPerUser ?? max(1, maximumConnections - maximumConnections / 4)
    }

    /// The size quota in force: the option, else 10% of the store's file system capped at 4 GiB.
    public func effectiveMaximumSize() -> Int64 {
        if let maximumSize { return maximumSize }
        var info = statvfs()
        guard statvfs(storeDirectory, &info) == 0 else { return 4 << 30 }
        let total = Int64(info.f_blocks) * Int64(info.f_frsize)
        return min(total / 10, 4 << 30)
    }
}

