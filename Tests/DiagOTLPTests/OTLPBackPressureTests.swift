import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport

/// A tmpfs of a few MiB, mounted for the test (root, as in CI here), so the store really fills.
final class FullableFileSystem {
    let directory: TemporaryDirectory

    init?(bytes: Int) {
        guard getuid() == 0, let directory = try? TemporaryDirectory("otlp-tmpfs") else { return nil }
        self.directory = directory
        guard mount("tmpfs", directory.path, "tmpfs", 0, "size=\(bytes)") == 0 else { return nil }
    }

    static var canMount: Bool { FullableFileSystem(bytes: 1 << 20) != nil }

    deinit { umount2(directory.path, Int32(MNT_DETACH)) }
}

/// Under back-pressure an OTLP request is answered 503 with Retry-After, never 200 for what was
/// not committed; records answered 200 are in the store.
@Suite(.serialized) struct OTLPBackPressureTests {
    @Test(.enabled(if: FullableFileSystem.canMount, "mounting a tmpfs needs root"))
    func aFullDiskIsAnswered503WithRetryAfterAndWhatWas200IsKept() throws {
        let disk = try #require(FullableFileSystem(bytes: 6 << 20))
        let daemon = try OTLPDaemon(extra: ["--max-size", "1G"], storePath: disk.directory.path + "/store")
        var info = statvfs()
        statvfs(disk.directory.path, &info)
        let filler = disk.directory.path + "/filler"
        try Data(count: max(0, Int(info.f_bavail) * Int(info.f_frsize) - (400 << 10))).write(to: URL(fileURLWithPath: filler))
        let padding = String(repeating: "x", count: 300)
        var acknowledged: [String] = []
        var refusal: HTTPReply?
        for batch in 0..<200 where refusal == nil {
            let messages = (0..<200).map { "full \(batch).\($0) \(padding)" }
            let reply = try RawHTTPConnection.post(
                port: daemon.port, body: ProtobufBytes.request(service: "filler", records: messages.map { .record($0) }))
            if reply.status == 200 { acknowledged += messages } else { refusal = reply }
        }
        let refused = try #require(refusal, "the store never filled up")
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] != nil)
        // The next request meets the refusing store at once.
        let next = try RawHTTPConnection.post(port: daemon.port, body: ProtobufBytes.request(service: "filler", records: [.record("while full")]))
        #expect(next.status == 503)
        #expect(next.headers["retry-after"] == "5")
        #expect(next.text.contains("the store refuses writes"), "\(next.text)")

        try FileManager.default.removeItem(atPath: filler)
        var resumed = false
        for attempt in 0..<100 where !resumed {
            let reply = try RawHTTPConnection.post(port: daemon.port, body: ProtobufBytes.request(service: "filler", records: [.record("resumed \(attempt)")]))
            resumed = reply.status == 200
            if !resumed { usleep(300_000) }
        }
        #expect(resumed, "writes did not resume once space returned")
        let stored = Set(try daemon.clientRecords().map(\.eventMessage))
        #expect(acknowledged.allSatisfy { stored.contains($0) }, "a record answered 200 is missing")
        #expect(daemon.stop() == 0)
    }
}
