import DiagCommandLine
import DiagForward
import DiagForwardHTTP
import DiagIngest
import DiagOTLP
import DiagProtocol
import DiagStore
import Foundation

/// `diagd`: the ingestion daemon, in the foreground.
struct Diagd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagd",
        abstract: "Receive log records from local processes and store them durably.",
        discussion: """
            Listens on a Unix socket for NDJSON records (docs/PROTOCOL.md), stamps each with the \
            sender's process, PID, user and executable from the kernel, and commits them to the \
            store in batches. SIGTERM or SIGINT commits what is queued and exits 0. Started by \
            systemd (Type=notify), it reports READY=1 once it accepts connections.

            Each --forward (and each `forward URL` line of the --config file) sends the committed \
            records to a receiver, store-and-forward: a cursor kept in the store's forwarding/ \
            folder resumes after a restart, and a receiver that is down or slow never holds the \
            store back (docs/FORWARDING.md). New forwards start with the records committed from \
            then on.

            Programs that do not link DiagClient log to diagd through syslog
            (--syslog-socket, --syslog-tcp) or an OpenTelemetry SDK's OTLP/HTTP exporter
            (--otlp-http, answered 200 once the records are committed;
            docs/OTLP-RECEIVER.md).
            """,
        version: "diagd 0.1.0", manualSection: 8, seeAlso: ["diag(1)"])

    @Option(help: "The store directory ($DIAG_STORE, else $XDG_STATE_HOME/diag/system_logs.logarchive).", valueName: "dir")
    var store: String?

    @Option(help: "The socket path ($DIAG_SOCKET, else $XDG_RUNTIME_DIR/diag/diagd.sock, else <store>/diagd.sock).", valueName: "path")
    var socket: String?

    @Option(name: "socket-group", help: "The group allowed to connect (the socket is mode 0660).", valueName: "group")
    var socketGroup: String?

    @Option(name: "max-size", help: "Store size quota, e.g. 500M or 2G (default: 10% of the file system, at most 4G).", valueName: "size")
    var maxSize: String?

    @Option(name: "max-age", help: "Drop chunks whose records are all older than this, e.g. 12h or 7d.", valueName: "age")
    var maxAge: String?

    @Option(name: "chunk-size", help: "Close a chunk and start a new one past this size (default 64M).", valueName: "size")
    var chunkSize: String?

    @Option(name: "max-connections", help: "Connections served at once; more are refused (default 1024).", valueName: "count")
    var maxConnections: Int?

    @Option(name: "max-connections-per-user", help: "Connections one user (UID) may have open at once (default: three quarters of --max-connections).", valueName: "count")
    var maxConnectionsPerUser: Int?

    @Option(name: "forward", help: "Forward committed records to URL: rfc5424+tcp://HOST:PORT[?facility=N] or otlp+http://HOST:PORT/v1/logs.", valueName: "url")
    var forward: [String] = []

    @Option(name: "syslog-socket", help: "Also take syslog messages (RFC 3164, RFC 5424) on this Unix datagram socket, like /dev/log.", valueName: "path")
    var syslogSocket: String?

    @Option(name: "syslog-tcp", help: "Also take syslog over TCP (RFC 6587) on HOST:PORT, or PORT on 127.0.0.1.", valueName: "address")
    var syslogTCP: String?

    @Option(name: "otlp-http", help: "Also take OpenTelemetry logs (OTLP/HTTP, POST /v1/logs) on HOST:PORT, or PORT on 127.0.0.1.", valueName: "address")
    var otlpHTTP: String?

    @Flag(name: "otlp-http-allow-remote", help: "Let --otlp-http listen on an address other machines reach (it has no authentication).")
    var otlpHTTPAllowRemote = false

    @Option(name: "config", help: "Read settings from FILE: `forward URL` lines, `#` comments.", valueName: "file")
    var config: String?

    mutating func validate() throws {
        _ = try forwardConfiguration()
        if let maxConnections, maxConnections < 1 {
            throw ValidationError("--max-connections '\(maxConnections)' must be at least 1")
        }
        if let maxConnectionsPerUser, maxConnectionsPerUser < 1 {
            throw ValidationError("--max-connections-per-user '\(maxConnectionsPerUser)' must be at least 1")
        }
        for (flag, value) in [("--max-size", maxSize), ("--chunk-size", chunkSize)] {
            if let value, QuantityParsing.byteCount(value) == nil {
                throw ValidationError("\(flag) '\(value)' is not a size; write a number of bytes with an optional K, M, G or T (e.g. 500M)")
            }
        }
        if let otlpHTTP {
            do { _ = try OTLPHTTPReceiver.address(otlpHTTP, allowRemote: otlpHTTPAllowRemote) } catch { throw ValidationError(error.description) }
        }
        if let maxAge, QuantityParsing.seconds(maxAge) == nil {
            throw ValidationError("--max-age '\(maxAge)' is not an age; write a number with s, m, h or d (e.g. 7d)")
        }
    }

    func run() throws {
        let storeDirectory = store ?? DefaultPaths.store()
        var options = DaemonOptions(
            storeDirectory: storeDirectory, socketPath: socket ?? DefaultPaths.socket(store: storeDirectory),
            socketGroup: socketGroup)
        options.maximumSize = maxSize.flatMap(QuantityParsing.byteCount)
        options.maximumAge = maxAge.flatMap(QuantityParsing.seconds)
        if let size = chunkSize.flatMap(QuantityParsing.byteCount) { options.chunkSize = size }
        if let maxConnections { options.maximumConnections = maxConnections }
        options.maximumConnectionsPerUser = maxConnectionsPerUser
        options.forwards = try forwardConfiguration().destinations
        options.syslogSocketPath = syslogSocket
        options.syslogTCP = syslogTCP
        if let otlpHTTP {
            options.listeners.append(OTLPHTTPReceiver.factory(
                address: otlpHTTP, allowRemote: otlpHTTPAllowRemote, maximumConnections: options.maximumConnections))
        }
        OTLPHTTPSink.register()
        let status = DaemonLauncher.run(options: options)
        if status != 0 { throw ExitCode(status) }
    }
}

extension Diagd {
    /// The forwards of --config, then of --forward; an error says which value and why.
    func forwardConfiguration() throws -> ForwardConfiguration {
        var configuration = ForwardConfiguration()
        do {
            if let config { try configuration.read(file: config) }
            for url in forward { try configuration.add(option: url) }
        } catch {
            throw ValidationError(error.description)
        }
        return configuration
    }
}

// Before the first connection: SQLite counts no memory (`Database.turnOffMemoryStatistics`),
// and each sort's memory is bounded whatever a chunk's page size (`Database.boundSortMemory`).
Database.turnOffMemoryStatistics()
Database.boundSortMemory()
Diagd.main()
