import DiagModel
import Foundation
import Testing
import TestSupport

/// Several real processes log through DiagClient's `Logger` into one diagd.
@Suite(.serialized) struct ClientProcessesTests {
    @Test func recordsFromSeveralProcessesArriveWithTheirOwnTrustedFields() throws {
        let daemon = try RunningDaemon()
        let activity: Int64 = 77_000_123
        let tags = ["core", "scheduler", "transport"]
        let outputs = try runConcurrently(tags.map { tag in
            ["log", "--records", "200", "--socket", daemon.socketPath, "--tag", tag, "--activity", String(activity)]
        })
        for output in outputs {
            #expect(output.status == 0, "client failed: \(output.stderr)")
            #expect(output.stdout.contains("dropped=0 errors=0"))
        }
        #expect(daemon.stop() == 0)
        // A stopped diagd leaves no WAL beside its chunks: every reader of the store would read
        // it back (its open chunk's was left until 2026-12-05).
        let chunks = try FileManager.default.subpathsOfDirectory(atPath: daemon.storePath).filter { $0.hasSuffix(".chunk.sqlite") }
        #expect(!chunks.isEmpty)
        for chunk in chunks {
            let wal = (try? FileManager.default.attributesOfItem(atPath: daemon.storePath + "/" + chunk + "-wal"))?[.size] as? Int ?? 0
            #expect(wal == 0, "\(chunk)-wal holds \(wal) bytes")
        }
        let records = try daemon.clientRecords()
        // Debug records (every fifth) stay in the memory ring by default.
        #expect(records.count == tags.count * 160)
        let byProcess = Dictionary(grouping: records, by: { $0.processID ?? 0 })
        #expect(byProcess.count == tags.count)
        for (pid, group) in byProcess {
            #expect(pid > 0 && pid != Int64(getpid()))
            #expect(Set(group.map(\.category)).count == 1)
            // The kernel keeps the first 15 bytes of the name in /proc/PID/comm.
            #expect(group.allSatisfy { $0.process == String("diag-bench-ingest".prefix(15)) })
            #expect(group.allSatisfy { $0.processImagePath == BuiltProducts.path("diag-bench-ingest") })
            #expect(group.allSatisfy { $0.activityIdentifier == activity })
            #expect(group.allSatisfy { $0.messageType != .debug })
            #expect(group.allSatisfy { $0.eventMessage.hasSuffix("with <private>") && !$0.eventMessage.contains("token") })
            #expect(group.allSatisfy { $0.formatString == "record %{public}@ of %{public}@ with %{private}@" })
            #expect(group.allSatisfy { $0.sender == "diag_bench_ingest" })
        }
    }

    @Test func aNewActivityIsAnnouncedAndCarriedByEveryRecordInside() throws {
        let daemon = try RunningDaemon()
        let output = try run(BuiltProducts.path("diag-bench-ingest"), ["log", "--records", "10", "--socket", daemon.socketPath, "--tag", "export"])
        #expect(output.status == 0, "\(output.stderr)")
        let printed = output.stdout.split(separator: "\n").first { $0.hasPrefix("activity=") }
        let identifier = try #require(printed.flatMap { Int64($0.dropFirst("activity=".count)) })
        #expect(daemon.stop() == 0)
        let records = try daemon.clientRecords()
        let creation = try #require(records.first { $0.eventType == .activityCreateEvent })
        #expect(creation.activityIdentifier == identifier)
        #expect(creation.eventMessage == "bench export")
        #expect(records.filter { $0.eventType == .logEvent }.allSatisfy { $0.activityIdentifier == identifier })
    }

    private func runConcurrently(_ argumentLists: [[String]]) throws -> [ProcessOutput] {
        let results = ResultBox(count: argumentLists.count)
        DispatchQueue.concurrentPerform(iterations: argumentLists.count) { index in
            results.set(index, Result { try run(BuiltProducts.path("diag-bench-ingest"), argumentLists[index]) })
        }
        return try results.values.map { try $0!.get() }
    }
}

final class ResultBox: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var storage: [Result<ProcessOutput, any Error>?]
    init(count: Int) { storage = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: Result<ProcessOutput, any Error>) { lock.withLock { storage[index] = value } }
    var values: [Result<ProcessOutput, any Error>?] { lock.withLock { storage } }
}
