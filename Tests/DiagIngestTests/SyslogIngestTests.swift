import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport

/// `diagd --syslog-socket` and `--syslog-tcp` with clients nobody here wrote: util-linux's
/// `logger` and Python's `logging.handlers.SysLogHandler`.
@Suite(.serialized) struct SyslogIngestTests {
    @Test func loggerOverTheDatagramSocketArrivesWithTheKernelsPIDAndUID() throws {
        let daemon = try SyslogDaemon()
        // --id claims a PID: it is kept as metadata.syslog.pid, never as the record's processID.
        let logger = try SyslogDaemon.run("/usr/bin/logger", ["-u", daemon.syslogPath, "-t", "sync-agent", "--id=99999", "-p", "daemon.err", "upload failed: 503"])
        let crit = try SyslogDaemon.run("/usr/bin/logger", ["-u", daemon.syslogPath, "-t", "sync-agent", "-p", "local3.crit", "store corrupted"])
        let records = try daemon.waitForRecords(2)
        let error = try #require(records.first { $0.eventMessage == "upload failed: 503" })
        #expect(error.messageType == .error)
        #expect(error.processID == Int64(logger))
        // logger has exited by now, perhaps before diagd read /proc: its name is not asserted
        // here (the Python test's sender stays alive for that); PID and UID come with the datagram.
        #expect(error.userID == Int64(getuid()))
        #expect(error.sender == "sync-agent")
        #expect(error.category == "daemon")
        #expect(error.metadata?["syslogPID"] == .string("99999"))
        #expect(error.metadata?["syslogSeverity"] == .string("err"))
        let fault = try #require(records.first { $0.eventMessage == "store corrupted" })
        #expect(fault.messageType == .fault)
        #expect(fault.processID == Int64(crit))
        #expect(fault.category == "local3")
    }

    @Test func loggerInRFC5424KeepsStructuredDataAsMetadataAndItsTimestamp() throws {
        let daemon = try SyslogDaemon()
        _ = try SyslogDaemon.run("/usr/bin/logger", [
            "-u", daemon.syslogPath, "--rfc5424", "-t", "scheduler", "--msgid", "DECIDE", "-p", "user.warning",
            "--sd-id", "sched@32473", "--sd-param", "activity=\"export\"", "--sd-param", "score=\"0.5\"", "deferred: budget spent",
        ])
        let record = try #require(try daemon.waitForRecords(1).first)
        #expect(record.messageType == .default)
        #expect(record.sender == "scheduler")
        #expect(record.metadata?["activity"] == .string("export"))
        #expect(record.metadata?["score"] == .string("0.5"))
        #expect(record.metadata?["syslogMsgID"] == .string("DECIDE"))
        #expect(record.metadata?["syslogSeverity"] == .string("warning"))
        #expect(record.metadata?["syslogFormat"] == .string("rfc5424"))
        // logger writes microseconds and a zone; the record keeps that time, before its receipt.
        #expect(record.timestamp % 1000 == 0)
        #expect(record.timestamp <= record.receiptTime!)
    }

    @Test func pythonSysLogHandlerMapsEveryLevel() throws {
        let daemon = try SyslogDaemon()
        let script = """
            import logging, logging.handlers, sys
            handler = logging.handlers.SysLogHandler(address=sys.argv[1], facility=logging.handlers.SysLogHandler.LOG_LOCAL0)
            handler.setFormatter(logging.Formatter("notifier[%(process)d]: %(message)s"))
            log = logging.getLogger("notifier")
            log.addHandler(handler)
            log.setLevel(logging.DEBUG)
            log.debug("push token refreshed")
            log.info("subscribed to topic")
            log.warning("push delayed")
            log.error("push lost")
            log.critical("APNs certificate expired")
            import os, time
            deadline = time.time() + 30
            while not os.path.exists(sys.argv[2]) and time.time() < deadline:
                time.sleep(0.02)
            """
        // The sender stays alive until its records are stored, so diagd finds it in /proc.
        let marker = daemon.daemon.directory.file("stored").path
        let pid = try SyslogDaemon.spawn("/usr/bin/env", ["python3", "-c", script, daemon.syslogPath, marker])
        // Debug is kept in the ring only (diagd's default level setting); the other four are stored.
        let records = try daemon.waitForRecords(4)
        #expect(FileManager.default.createFile(atPath: marker, contents: nil))
        try SyslogDaemon.wait(pid, "python3")
        let levels = Dictionary(uniqueKeysWithValues: records.map { ($0.eventMessage, $0.messageType) })
        #expect(levels == ["subscribed to topic": .info, "push delayed": .default, "push lost": .error, "APNs certificate expired": .fault])
        for record in records {
            #expect(record.processID == Int64(pid))
            #expect(record.sender == "notifier")
            #expect(record.category == "local0")
            #expect(record.process?.hasPrefix("python") == true)
            #expect(record.processImagePath?.contains("python") == true)
        }
    }

    @Test func loggerOverTCPWithOctetCountingAndLineFeeds() throws {
        let port = try LoopbackPort.free()
        let daemon = try SyslogDaemon(extra: ["--syslog-tcp", "\(port)"])
        _ = try SyslogDaemon.run("/usr/bin/logger", ["-T", "-n", "127.0.0.1", "-P", "\(port)", "--octet-count", "-t", "transport", "-p", "user.info", "counted frame"])
        let client = try TCPClient(port: port)
        client.write("<11>Dec  1 20:00:00 host-1 transport[42]: line one\n<14>transport: line two\n")
        client.close()
        let records = try daemon.waitForRecords(3)
        let counted = try #require(records.first { $0.eventMessage == "counted frame" })
        #expect(counted.messageType == .info)
        #expect(counted.processID == nil)
        #expect(counted.metadata?["syslogTransport"] == .string("tcp"))
        let first = try #require(records.first { $0.eventMessage == "line one" })
        #expect(first.messageType == .error)
        #expect(first.metadata?["syslogHostname"] == .string("host-1"))
        #expect(first.metadata?["syslogPID"] == .string("42"))
        #expect(records.contains { $0.eventMessage == "line two" && $0.sender == "transport" })
    }
}

/// A diagd with a syslog datagram socket beside its own.
final class SyslogDaemon {
    let daemon: RunningDaemon
    let syslogPath: String

    init(extra: [String] = []) throws {
        let directory = try TemporaryDirectory("syslog")
        syslogPath = directory.file("log").path
        daemon = try RunningDaemon(arguments: ["--syslog-socket", syslogPath] + extra, directory: directory)
    }

    /// Runs a client to its end; returns its PID. Throws when it fails.
    /// posix_spawn and waitpid rather than `Process`: Foundation's reaping of a short-lived child
    /// while another `Process` (systemd-socket-activate) runs was seen to leave it a zombie (the
    /// leak `Spawning` explains; the spawn takes its lock too, not to pass one on).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let pid = try spawn(executable, arguments)
        try wait(pid, "\(executable) \(arguments.joined(separator: " "))")
        return pid
    }

    /// Starts a client; `wait` reaps it.
    static func spawn(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = Spawning.exclusively { posix_spawn(&pid, executable, nil, nil, argv, environ) }
        guard spawned == 0 else { throw DaemonFailure("cannot run \(executable): \(String(cString: strerror(spawned)))") }
        return pid
    }

    static func wait(_ pid: Int32, _ what: String) throws {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw DaemonFailure("\(what) exited with status \(status)") }
    }

    /// Waits until the store holds `count` client records (diagd commits within a second).
    func waitForRecords(_ count: Int) throws -> [LogRecord] {
        let deadline = Date(timeIntervalSinceNow: 30)
        while Date() < deadline {
            let records = (try? daemon.clientRecords()) ?? []
            if records.count >= count { return records }
            usleep(50_000)
        }
        throw DaemonFailure("the store did not reach \(count) records; diagd said: \(daemon.stderr)")
    }

    /// diagd's counters (`{"stats": true}`).
    func stats() throws -> [String: JSONValue] {
        let client = try DaemonClient(path: daemon.socketPath)
        client.write("{\"stats\":true}\n")
        guard case .object(let stats)? = client.readReply()?["stats"] else { throw DaemonFailure("no stats reply") }
        return stats
    }
}

/// A TCP client on loopback, for frames no real client would send.
final class TCPClient {
    let descriptor: Int32

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Spawning.closeOnExec(SOCK_STREAM), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw DaemonFailure("cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            offset += count
        }
    }

    /// Whether the server closed the connection (a read returns 0 or fails) within `seconds`.
    func closedByServer(within seconds: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, seconds * 1000) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) <= 0
    }

    func close() { Glibc.close(descriptor) }
}


/// `systemd/diagd-syslog.socket`'s way of starting diagd: systemd holds the datagram socket and
/// passes it ($LISTEN_FDS); systemd-socket-activate does the same outside systemd.
@Suite struct SyslogSocketActivationTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate"), "needs systemd-socket-activate"))
    func diagdReadsTheDatagramSocketSystemdPasses() throws {
        let directory = try TemporaryDirectory("activation")
        let syslogPath = directory.file("log").path
        let storePath = directory.file("store").path
        let activator = Process()
        activator.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        activator.arguments = [
            "--datagram", "--listen", syslogPath, BuiltProducts.path("diagd"), "--store", storePath,
            "--socket", directory.file("diagd.sock").path, "--syslog-socket", syslogPath,
        ]
        let stderrPath = directory.file("stderr").path
        #expect(FileManager.default.createFile(atPath: stderrPath, contents: nil))
        activator.standardError = FileHandle(forWritingAtPath: stderrPath)
        try activator.spawn()
        defer { if activator.isRunning { kill(activator.processIdentifier, SIGKILL) } }
        let deadline = Date(timeIntervalSinceNow: 20)
        while !FileManager.default.fileExists(atPath: syslogPath) && Date() < deadline { usleep(20_000) }
        // The first datagram starts diagd, which then reads it from the socket it was given.
        // systemd-socket-activate (unlike the unit's PassCredentials=yes) leaves SO_PASSCRED
        // off until diagd sets it, so the kernel attached no sender to this one.
        try SyslogDaemon.run("/usr/bin/logger", ["-u", syslogPath, "-t", "activated", "-p", "user.err", "sent before diagd ran"])
        var records: [LogRecord] = []
        while records.isEmpty && Date() < deadline {
            usleep(100_000)
            records = (try? RunningDaemon.records(inStore: storePath))?.filter { $0.process != "diagd" } ?? []
        }
        let logger = try SyslogDaemon.run("/usr/bin/logger", ["-u", syslogPath, "-t", "activated", "-p", "user.err", "sent while diagd ran"])
        while records.count < 2 && Date() < deadline {
            usleep(100_000)
            records = (try? RunningDaemon.records(inStore: storePath))?.filter { $0.process != "diagd" } ?? []
        }
        kill(activator.processIdentifier, SIGTERM)
        let reaped = activator.waitForExit(seconds: 600)
        let log = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        try #require(reaped, "diagd said: \(log)")
        #expect(activator.terminationStatus == 0)
        #expect(records.map(\.eventMessage) == ["sent before diagd ran", "sent while diagd ran"], "diagd said: \(log)")
        #expect(records.first?.processID == nil)
        #expect(records.last?.processID == Int64(logger))
        #expect(log.contains("syslog datagrams on \(syslogPath) (from systemd)"))
        // The socket is systemd's: diagd leaves it in place.
        #expect(FileManager.default.fileExists(atPath: syslogPath))
    }
}
