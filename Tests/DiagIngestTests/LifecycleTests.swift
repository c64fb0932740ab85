import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport

@Suite(.serialized) struct LifecycleTests {
    @Test func aSecondDaemonOnTheSameStoreExitsWithAClearError() throws {
        let daemon = try RunningDaemon()
        let second = try run(BuiltProducts.path("diagd"), ["--store", daemon.storePath, "--socket", daemon.directory.file("other.sock").path])
        #expect(second.status == 1)
        #expect(second.stderr.contains("another diagd (pid \(daemon.process.processIdentifier)) is already running on the store"))
        let client = try DaemonClient(path: daemon.socketPath)
        client.write("{\"eventMessage\":\"still served\"}\n{\"sync\":1}\n")
        #expect(client.waitForSync(1) == [])
    }

    @Test func aLiveDaemonIsNeverDisplacedFromItsSocket() throws {
        let daemon = try RunningDaemon()
        let otherStore = daemon.directory.file("other-store").path
        let second = try run(BuiltProducts.path("diagd"), ["--store", otherStore, "--socket", daemon.socketPath])
        #expect(second.status == 1)
        #expect(second.stderr.contains("another diagd is listening on \(daemon.socketPath)"))
        let client = try DaemonClient(path: daemon.socketPath)
        client.write("{\"sync\":1}\n")
        #expect(client.waitForSync(1) == [])
    }

    @Test func theSocketOfAKilledDaemonIsReplacedAtRestart() throws {
        let daemon = try RunningDaemon()
        let before = try DaemonClient(path: daemon.socketPath)
        before.write("{\"eventMessage\":\"before the kill\"}\n{\"sync\":1}\n")
        #expect(before.waitForSync(1) == [])
        daemon.killHard()
        #expect(FileManager.default.fileExists(atPath: daemon.socketPath))
        try daemon.start()
        var status = stat()
        #expect(stat(daemon.socketPath, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o660)
        let client = try DaemonClient(path: daemon.socketPath)
        client.write("{\"eventMessage\":\"after restart\"}\n{\"sync\":1}\n")
        #expect(client.waitForSync(1) == [])
        #expect(daemon.stop() == 0)
        #expect(try daemon.clientRecords().map(\.eventMessage) == ["before the kill", "after restart"])
    }

    @Test func sigtermCommitsWhatIsQueuedAndExitsZero() throws {
        let daemon = try RunningDaemon()
        let client = try DaemonClient(path: daemon.socketPath)
        var lines = ""
        for index in 0..<5000 { lines += "{\"eventMessage\":\"queued \(index)\"}\n" }
        client.write(lines + "{\"sync\":1}\n")
        #expect(client.waitForSync(1) == [])
        client.write("{\"eventMessage\":\"last\"}\n")
        client.finishWriting()
        #expect(client.readReply() == nil)
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
        let records = try daemon.clientRecords()
        #expect(records.count == 5001)
        let own = try daemon.storedRecords().filter { $0.process == "diagd" }
        #expect(own.contains { $0.eventMessage.contains("accepting on") })
        #expect(own.contains { $0.eventMessage.contains("stopping") })
        #expect(daemon.stderr.contains("diagd: default: diagd"))
    }

    @Test func readyIsSentToTheNotifySocketOnceAccepting() throws {
        let directory = try TemporaryDirectory("notify")
        let notifyPath = directory.file("notify.sock").path
        let receiver = socket(AF_UNIX, Spawning.closeOnExec(SOCK_DGRAM), 0)
        defer { close(receiver) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(notifyPath.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(receiver, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(receiver, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("diagd"))
        process.arguments = ["--store", directory.file("store").path, "--socket", directory.file("d.sock").path]
        process.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": notifyPath]) { $1 }
        process.standardError = FileHandle.nullDevice
        try process.spawn()
        defer { kill(process.processIdentifier, SIGTERM); _ = process.waitForExit(seconds: 600) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { recv(receiver, $0.baseAddress, $0.count, 0) }
        try #require(count > 0)
        let message = String(decoding: buffer[0..<count], as: UTF8.self)
        #expect(message.hasPrefix("READY=1"))
        // READY comes after the socket is bound: a client can connect right away.
        let client = try DaemonClient(path: directory.file("d.sock").path)
        client.write("{\"sync\":1}\n")
        #expect(client.waitForSync(1) == [])
    }
}

@Suite(.serialized) struct SocketGroupTests {
    @Test func theSocketIsGivenToTheConfiguredGroup() throws {
        let group = getgid() == 0 ? "daemon" : String(getgid())
        let daemon = try RunningDaemon(arguments: ["--socket-group", group])
        var status = stat()
        #expect(stat(daemon.socketPath, &status) == 0)
        let expected = getgrnam(group).map { $0.pointee.gr_gid } ?? gid_t(group)
        #expect(status.st_gid == expected)
        #expect(status.st_mode & 0o777 == 0o660)
    }

    @Test func anUnknownGroupIsRefusedWithWhatIsAccepted() throws {
        let directory = try TemporaryDirectory("group")
        let output = try run(BuiltProducts.path("diagd"), [
            "--store", directory.file("store").path, "--socket", directory.file("d.sock").path,
            "--socket-group", "no-such-group-here",
        ])
        #expect(output.status == 1)
        #expect(output.stderr.contains("unknown group 'no-such-group-here'"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("d.sock").path))
    }

    @Test func badOptionValuesAreUsageErrors() throws {
        let output = try run(BuiltProducts.path("diagd"), ["--max-size", "lots"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("--max-size 'lots' is not a size"))
        let age = try run(BuiltProducts.path("diagd"), ["--max-age", "7 weeks"])
        #expect(age.status == 64)
        #expect(age.stderr.contains("--max-age '7 weeks' is not an age"))
    }
}

@Suite(.serialized) struct ConnectionLimitTests {
    @Test func connectionsBeyondTheLimitAreRefusedWithAReason() throws {
        let daemon = try RunningDaemon(arguments: ["--max-connections", "2"])
        // The daemon's own start-up probe has come and gone; wait until it is no longer counted.
        var first: DaemonClient? = try DaemonClient(path: daemon.socketPath)
        first!.write("{\"sync\":1}\n")
        #expect(first!.waitForSync(1) == [])
        let second = try DaemonClient(path: daemon.socketPath)
        second.write("{\"sync\":1}\n")
        let secondReply = second.readReply()
        let third = try DaemonClient(path: daemon.socketPath)
        let refused = third.readReply()
        if secondReply?["synced"] != nil {
            #expect(refused?["error"]?.stringValue?.contains("at most 2 connections") == true)
            #expect(third.readReply() == nil)
        } else {
            // The probe connection was still counted: the second client was the one refused.
            #expect(secondReply?["error"]?.stringValue?.contains("at most 2 connections") == true)
        }
        first = nil
        let deadline = Date(timeIntervalSinceNow: 20)
        var served = false
        while !served && Date() < deadline {
            let later = try DaemonClient(path: daemon.socketPath)
            later.write("{\"sync\":7}\n")
            served = later.readReply()?["synced"]?.int64Value == 7
            if !served { usleep(50_000) }
        }
        #expect(served, "a slot freed by a closed connection should be served again")
        #expect(daemon.stderr.contains("connections are open"))
    }
}

@Suite struct RelativeSocketPathTests {
    /// `--socket d.sock` names a socket in the current folder: diagd must not try to create the
    /// empty folder part of the path (it failed with "file doesn't exist").
    @Test func aBareSocketNameIsBoundInTheCurrentFolder() throws {
        let directory = try TemporaryDirectory("diagd-relative")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("diagd"))
        process.arguments = ["--store", "store", "--socket", "d.sock"]
        process.currentDirectoryURL = directory.url
        process.standardError = FileHandle.nullDevice
        try process.spawn()
        defer { kill(process.processIdentifier, SIGTERM); _ = process.waitForExit(seconds: 600) }
        let socketPath = directory.file("d.sock").path
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socketPath), process.isRunning, Date() < deadline {
            usleep(20_000)
        }
        try #require(process.isRunning, "diagd exited with status \(process.terminationStatus)")
        let client = try DaemonClient(path: socketPath)
        client.write("{\"sync\":1}\n")
        #expect(client.waitForSync(1) == [])
        #expect(FileManager.default.fileExists(atPath: directory.file("store/Info.json").path))
    }
}

@Suite(.serialized) struct PerUserConnectionLimitTests {
    /// Every test client runs as this UID: the limit per user is reached before the total, the
    /// next client is refused with a reason, and the connections already open go on working.
    @Test func aUserBeyondItsLimitIsRefusedWhileItsOpenConnectionsWork() throws {
        let daemon = try RunningDaemon(arguments: ["--max-connections", "50", "--max-connections-per-user", "3"])
        // Served one after the other, so that the daemon's start-up probe is gone before the last.
        var open: [DaemonClient] = []
        let deadline = Date(timeIntervalSinceNow: 20)
        while open.count < 3 && Date() < deadline {
            let client = try DaemonClient(path: daemon.socketPath)
            client.write("{\"sync\":1}\n")
            if client.readReply()?["synced"] != nil { open.append(client) } else { usleep(50_000) }
        }
        #expect(open.count == 3)
        let refused = try DaemonClient(path: daemon.socketPath)
        let reply = refused.readReply()
        #expect(reply?["error"]?.stringValue?.contains("at most 3 connections per user") == true, "\(String(describing: reply))")
        #expect(reply?["error"]?.stringValue?.contains("uid \(getuid())") == true)
        #expect(refused.readReply() == nil, "the refused connection is closed")
        // The open ones still store records and answer.
        open[1].write("{\"eventMessage\":\"still served\"}\n{\"sync\":2}\n")
        #expect(open[1].waitForSync(2) == [])
        #expect(daemon.stderr.contains("per user"))
    }
}

@Suite(.serialized) struct EventLoopThreadTests {
    /// Connections no longer cost a thread each: 300 idle clients are served by the same few threads.
    @Test func manyIdleConnectionsAreServedByAFixedNumberOfThreads() throws {
        let daemon = try RunningDaemon()
        let pid = daemon.process.processIdentifier
        func threads() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? -1 }
        var clients: [DaemonClient] = []
        var before = 0
        for index in 0..<300 {
            let client = try DaemonClient(path: daemon.socketPath)
            clients.append(client)
            if index % 50 == 0 { client.write("{\"sync\":\(index)}\n"); #expect(client.readReply()?["synced"]?.int64Value == Int64(index)) }
            // Counted once a connection is served: the workers start after the socket is ready,
            // and a loaded machine may not have started them when the first connection is made.
            if index == 0 { before = threads() }
        }
        let last = clients[299]
        last.write("{\"eventMessage\":\"the 300th\"}\n{\"sync\":300}\n")
        #expect(last.waitForSync(300) == [])
        #expect(threads() <= before + 2, "threads before: \(before), with 300 connections: \(threads())")
        clients[0].write("{\"stats\":true}\n")
        guard case .object(let stats)? = clients[0].readReply()?["stats"] else { Issue.record("no stats reply"); return }
        #expect(stats["openConnections"]?.int64Value == 300)
    }
}
