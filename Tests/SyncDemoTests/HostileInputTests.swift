import Foundation
import Glibc
import SyncDemoKit
import Testing
import TestSupport

/// What the components and the sync core's files do with input that is not what they expect.
@Suite(.serialized)
struct SyncDemoHostileInputTests {
    /// Sends raw bytes to a component's socket and returns its one reply line.
    static func exchange(_ bytes: [UInt8], path: String) throws -> String {
        let descriptor = socket(AF_UNIX, Spawning.closeOnExec(SOCK_STREAM), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw HarnessFailure("cannot connect to \(path)") }
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(descriptor, Int32(SHUT_WR))
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            reply += chunk[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    @Test func transportAnswersEveryBadRequestWithAnErrorAndKeepsServing() throws {
        let harness = try ScenarioHarness()
        let layout = WorkLayout(path: harness.workPath)
        try layout.create()
        try FileManager.default.createDirectory(at: layout.deviceFolder("A"), withIntermediateDirectories: true)
        let notAStore = layout.deviceFolder("A").appendingPathComponent("not-a-batch.json").path
        try Data("{\"posts\": 3}".utf8).write(to: URL(fileURLWithPath: notAStore))
        let outside = harness.directory.file("outside.json").path
        try Data("{}".utf8).write(to: URL(fileURLWithPath: outside))
        let transport = Process()
        transport.executableURL = URL(fileURLWithPath: BuiltProducts.path("transport"))
        transport.arguments = ["--work", harness.workPath]
        transport.environment = ProcessInfo.processInfo.environment.merging(["DIAG_SOCKET": harness.socketPath]) { $1 }
        try transport.spawn()
        let socket = layout.socket(.transport)
        let deadline = Date(timeIntervalSinceNow: 20)
        while !FileManager.default.fileExists(atPath: socket), Date() < deadline { usleep(20_000) }

        let cases: [(String, String)] = [
            ("garbage\n", "not a request line"),
            ("{\"command\":\"upload\"}\n", "not a request line"),
            ("{\"command\":\"teleport\",\"values\":{}}\n", "unknown request 'teleport'"),
            ("{\"command\":\"upload\",\"values\":{\"attempt\":\"1\"}}\n", "lacks the value 'batch'"),
            ("{\"command\":\"upload\",\"values\":{\"batch\":\"\(notAStore)\",\"attempt\":\"1\"}}\n", "is not a record batch"),
            ("{\"command\":\"upload\",\"values\":{\"batch\":\"\(notAStore)\",\"attempt\":\"x\"}}\n", "'attempt' is 'x', not an integer"),
            ("{\"command\":\"commit\",\"values\":{\"store\":\"../../etc\",\"device\":\"A\",\"batches\":\"1\"}}\n", "is not a UUID"),
            ("\u{0}\u{1}\u{2}\u{ff}\n", "not a request line"),
            ("{\"command\":\"upload\",\"values\":{\"batch\":\"\(outside)\",\"attempt\":\"1\"}}\n", "outside the devices' folders"),
            ("{\"command\":\"upload\",\"values\":{\"batch\":\"\(layout.deviceFolder("A").path)/../../../outside.json\",\"attempt\":\"1\"}}\n", "outside the devices' folders"),
            ("{\"command\":\"download\",\"values\":{\"store\":\"x\",\"destination\":\"/etc\"}}\n", "outside the devices' folders"),
        ]
        for (request, expected) in cases {
            let reply = try Self.exchange(Array(request.utf8), path: socket)
            #expect(reply.contains("\"error\"") && reply.contains(expected), "\(request) → \(reply)")
        }
        let oversized = [UInt8](repeating: UInt8(ascii: "x"), count: 2 << 20)
        #expect(try Self.exchange(oversized, path: socket).contains("longer than"))

        let status = try MessageClient.send(DemoMessage("status"), to: socket)
        #expect(status.command == "status", "the transport still serves after the bad requests")
        _ = try MessageClient.send(DemoMessage("shutdown"), to: socket)
        try #require(transport.waitForExit(seconds: 600))
        #expect(transport.terminationStatus == 0)
        #expect(harness.stopDaemon() == 0)
        let refused = try harness.show(["--predicate", "process == \"transport\""])
        #expect(refused.contains { ($0["eventMessage"] as? String ?? "").contains("stopping") }, "the transport flushed its logs")
    }

    @Test func schedulerAndNotifierRefuseBadRequests() throws {
        let harness = try ScenarioHarness()
        let layout = WorkLayout(path: harness.workPath)
        var services: [Process] = []
        for component in [DemoComponent.scheduler, .notifier] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuiltProducts.path(component.rawValue))
            process.arguments = ["--work", harness.workPath]
            process.environment = ProcessInfo.processInfo.environment.merging(["DIAG_SOCKET": harness.socketPath]) { $1 }
            try process.spawn()
            services.append(process)
        }
        let scheduler = layout.socket(.scheduler), notifier = layout.socket(.notifier)
        let cases: [(DemoMessage, String, String)] = [
            (DemoMessage("submit", values: ["name": "x", "kind": "teleport"]), scheduler, "kind 'teleport' is not one of export, import"),
            (DemoMessage("complete", values: ["name": "x", "kind": "export", "durationMs": "1", "result": "ok"]), scheduler, "lacks the activity ID"),
            (DemoMessage("register", values: ["device": "../../etc", "topic": "t"]), notifier, "device name '../../etc'"),
            (DemoMessage("register", values: ["device": "B"]), notifier, "lacks the value 'topic'"),
            (DemoMessage("push", values: ["topic": "t", "store": "s"]), notifier, "lacks the value 'fromDevice'"),
        ]
        for (request, socket, expected) in cases {
            let error = #expect(throws: DemoError.self) { try MessageClient.send(request, to: socket) }
            #expect(error?.description.contains(expected) == true, "\(request.command): \(error?.description ?? "")")
        }
        #expect(!FileManager.default.fileExists(atPath: harness.directory.file("etc").path), "no folder made outside the work folder")
        let run = try MessageClient.send(DemoMessage("submit", values: ["name": "a", "kind": "import"]), to: scheduler)
        #expect(["run", "defer"].contains(run.command), "the scheduler still decides after bad requests")
        for (socket, process) in zip([scheduler, notifier], services) {
            _ = try MessageClient.send(DemoMessage("shutdown"), to: socket)
            try #require(process.waitForExit(seconds: 600))
            #expect(process.terminationStatus == 0)
        }
    }

    @Test func syncCoreRefusesBadArgumentsWithUsageErrors() throws {
        let directory = try TemporaryDirectory("sd-args")
        let cases: [([String], String)] = [
            (["--work", directory.path, "--device", "../escape", "--role", "export"], "device name '../escape'"),
            (["--work", directory.path, "--device", "A", "--role", "sideways"], "sideways"),
            (["--work", directory.path, "--device", "A", "--role", "export", "--posts", "-3"], "--posts"),
            (["--work", directory.path, "--device", "A", "--role", "export", "--fault", "meteor"], "meteor"),
        ]
        for (arguments, expected) in cases {
            let output = try run(BuiltProducts.path("sync-core"), arguments)
            #expect(output.status == 64, "\(arguments)")
            #expect(output.stderr.contains(expected), "\(arguments): \(output.stderr)")
        }
        let demo = try run(BuiltProducts.path("sync-demo"), ["run", "--work", directory.path, "--posts", "0"])
        #expect(demo.status == 64 && demo.stderr.contains("--posts 0"))
        let noDaemon = try run(BuiltProducts.path("sync-demo"), ["run", "--work", directory.path],
                               environment: ["DIAG_SOCKET": directory.file("nobody.sock").path])
        #expect(noDaemon.status == 1 && noDaemon.stderr.contains("no diagd accepts connections"), "fails at once: \(noDaemon.stderr)")
    }

    @Test func damagedFilesAreRefusedWithTheFileNamed() throws {
        let directory = try TemporaryDirectory("sd-files")
        let garbage = try directory.write("garbage.sqlite", String(repeating: "not sqlite ", count: 100))
        #expect(throws: (any Error).self) { try PersistentStore(path: garbage, readOnly: true) }
        let batch = try directory.write("batch.json", "{\"sourceStore\": 1}")
        let error = #expect(throws: DemoError.self) { try RecordBatch.read(from: URL(fileURLWithPath: batch)) }
        #expect(error?.description.contains(batch) == true)
        let push = try directory.write("push.json", "[]")
        #expect(throws: DemoError.self) { try PushNotification.read(from: URL(fileURLWithPath: push)) }
    }

    @Test func storeRoundTripsPostsAndAuditFindsDamagedImageData() throws {
        let directory = try TemporaryDirectory("sd-store")
        let path = directory.file("S.sqlite").path
        var generator = DataSetGenerator(seed: 7)
        let posts = generator.posts(count: 5, device: "T", now: 1_700_000_000)
        let store = try PersistentStore(path: path)
        #expect(try store.save(posts) == 5)
        #expect(try store.save(posts) == 0, "saving the same records again adds nothing")
        #expect(try store.unexportedPosts(limit: 100) == posts)
        try store.markExported([posts[0].recordName])
        #expect(try store.unexportedPosts(limit: 100).count == 4)
        #expect(try store.audit().problems == [])
        let attachments = posts.flatMap(\.attachments)
        #expect(attachments.allSatisfy { $0.isIntact })
        let sizes = Set(posts.flatMap(\.attachments).map(\.data.count))
        #expect(sizes.count > 1, "attachments of varied sizes")

        let raw = try DiagStoreProbe(path: path)
        try raw.execute("UPDATE ZIMAGEDATA SET ZDATA = zeroblob(10) WHERE Z_PK = 1")
        let audit = try store.audit()
        #expect(audit.problems.contains { $0.contains("checksum mismatch") })
        #expect(audit.problems.contains { $0.contains("10 bytes, expected") })
    }
}
