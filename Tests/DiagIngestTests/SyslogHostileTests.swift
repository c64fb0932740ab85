import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport

/// Hostile input on the syslog listeners: refused with reasons, counted, diagd up.
@Suite(.serialized) struct SyslogHostileTests {
    @Test func malformedAndOversizedDatagramsAreRefusedAndCountedWithTheirReasons() throws {
        let syslog = try SyslogDaemon()
        let sender = try DatagramSender(path: syslog.syslogPath)
        try sender.send([UInt8](repeating: UInt8(ascii: "a"), count: 70_000))
        try sender.send(Array("<999>too high a priority".utf8))
        try sender.send(Array("<13>1 yesterday host app - - - message".utf8))
        try sender.send(Array("<13>1 2026-12-01T20:00:00Z host app - - [unclosed x=\"1\" message".utf8))
        try sender.send([0, 0])
        try sender.send(Array("<12>survivor: still here".utf8))
        let records = try syslog.waitForRecords(1)
        #expect(records.map(\.eventMessage) == ["still here"])
        #expect(records.first?.messageType == .default)
        let stats = try syslog.stats()
        #expect(stats["syslogInvalid"] == .int(5))
        #expect(stats["syslogReceived"] == .int(1))
        #expect(syslog.daemon.stop() == 0)
        let log = syslog.daemon.stderr
        // Reports are at most every 5 s: a loaded machine may split the five into two reports.
        #expect(log.contains("syslog: refused "), "\(log)")
        #expect(log.contains("; the first: a datagram from pid \(getpid())"), "\(log)")
        #expect(log.contains("is over 65536 bytes (64 KiB); it was refused whole"))
    }

    @Test func tcpFramesOverTheLimitCloseTheConnectionAndOthersGoOn() throws {
        let port = try LoopbackPort.free()
        let syslog = try SyslogDaemon(extra: ["--syslog-tcp", "127.0.0.1:\(port)"])
        let counted = try TCPClient(port: port)
        counted.write("99999999 <13>too long")
        #expect(counted.closedByServer(within: 10))
        let unterminated = try TCPClient(port: port)
        unterminated.write([UInt8](repeating: UInt8(ascii: "b"), count: 80_000))
        #expect(unterminated.closedByServer(within: 10))
        let badSpace = try TCPClient(port: port)
        badSpace.write("12x<13>hello\n")
        #expect(badSpace.closedByServer(within: 10))
        let good = try TCPClient(port: port)
        good.write("13 <13>app: fine")
        good.close()
        let records = try syslog.waitForRecords(1)
        #expect(records.map(\.eventMessage) == ["fine"])
        #expect(try syslog.stats()["syslogInvalid"] == .int(3))
        #expect(syslog.daemon.stop() == 0)
        let log = syslog.daemon.stderr
        #expect(log.contains("octet-counted frame announces more than 65536 bytes"))
    }

    /// A slow client: a frame begun and never finished. Others are served meanwhile, and after
    /// `SyslogTCPListener.stallSeconds` (30 s) of silence the connection is closed with its reason.
    @Test func aClientThatStallsInAFrameIsClosedAndOthersAreServedMeanwhile() throws {
        let port = try LoopbackPort.free()
        let syslog = try SyslogDaemon(extra: ["--syslog-tcp", "127.0.0.1:\(port)"])
        let stalled = try TCPClient(port: port)
        stalled.write("40 <13>app: the start of a frame that")
        let other = try TCPClient(port: port)
        other.write("21 <13>app: served first")
        other.close()
        #expect(try syslog.waitForRecords(1).map(\.eventMessage) == ["served first"])
        #expect(!stalled.closedByServer(within: 5))
        #expect(stalled.closedByServer(within: 60))
        #expect(syslog.daemon.stop() == 0)
        let log = syslog.daemon.stderr
        #expect(log.contains("a partial frame waited 30 s for more bytes; connection closed"), "\(log)")
    }

    @Test func connectionsBeyondTheLimitAreRefusedAndTheDaemonStaysUp() throws {
        let port = try LoopbackPort.free()
        let syslog = try SyslogDaemon(extra: ["--syslog-tcp", "\(port)", "--max-connections", "4"])
        var held: [TCPClient] = []
        // One at a time, each served (its record stored) before the next. The start-up probe's
        // connection to diagd's own socket may still be counted for a moment: a client refused
        // then connects again.
        for index in 0..<4 {
            for attempt in 0..<20 {
                let client = try TCPClient(port: port)
                client.write("<13>held: connection \(index) attempt \(attempt)\n")
                let deadline = Date(timeIntervalSinceNow: 3)
                var stored = false
                while !stored && Date() < deadline {
                    stored = ((try? syslog.daemon.clientRecords()) ?? []).contains { $0.eventMessage.hasPrefix("connection \(index) ") }
                    if !stored { usleep(50_000) }
                }
                if stored { held.append(client); break }
                client.close()
            }
        }
        #expect(held.count == 4, "\(syslog.daemon.stderr)")
        var refused = 0
        for _ in 0..<40 {
            let extra = try TCPClient(port: port)
            if extra.closedByServer(within: 10) { refused += 1 }
            extra.close()
        }
        #expect(refused == 40)
        held.forEach { $0.close() }
        #expect(syslog.daemon.stop() == 0)
        #expect(syslog.daemon.stderr.contains("syslog-tcp: refused a connection from 127.0.0.1:"))
    }

    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func datagramsWhileTheStoreRefusesWritesAreCountedAsLostAndReported() throws {
        let disk = try #require(SmallFileSystem(bytes: 6 << 20))
        let sockets = try TemporaryDirectory("syslogloss")
        let syslogPath = sockets.file("log").path
        let daemon = try RunningDaemon(arguments: ["--max-size", "1G", "--syslog-socket", syslogPath], storePath: disk.path + "/store", directory: sockets)
        var info = statvfs()
        statvfs(disk.path, &info)
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        try Data(count: max(0, free - (300 << 10))).write(to: URL(fileURLWithPath: disk.path + "/filler"))
        // Fill the rest through the syslog socket until the writer fails and the stats say so.
        let sender = try DatagramSender(path: syslogPath)
        let padding = String(repeating: "x", count: 1000)
        var lost: Int64 = 0
        for round in 0..<400 where lost == 0 {
            for index in 0..<50 { try sender.send(Array("<11>filler: \(round) \(index) \(padding)".utf8)) }
            usleep(20_000)
            let client = try DaemonClient(path: daemon.socketPath)
            client.write("{\"stats\":true}\n")
            if case .object(let stats)? = client.readReply()?["stats"], case .int(let value)? = stats["syslogLost"] { lost = value }
        }
        #expect(lost > 0)
        #expect(daemon.stop() == 0)
        #expect(daemon.stderr.contains("syslog: lost"))
        #expect(daemon.stderr.contains("the store writer was behind (queue full for over 1 s) or the store refused writes"))
    }
}

/// A Unix datagram socket sending to the syslog socket, for datagrams no real client would send.
final class DatagramSender {
    let descriptor: Int32
    let path: String

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Spawning.closeOnExec(SOCK_DGRAM), 0)
        guard descriptor >= 0 else { throw DaemonFailure("cannot create a datagram socket") }
        var size: Int32 = 1 << 20
        setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    func send(_ bytes: [UInt8]) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, 0, target, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        guard sent == bytes.count else { throw DaemonFailure("sendto \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(descriptor) }
}
