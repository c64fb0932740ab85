import DiagGenerator
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

/// Issue 15 with issue 13's bound: `diag show --style ndjson` of chunks that overlap in time,
/// two sealed and two not (read on several threads and merged, `MergedParallelBlocks`), holds
/// a bounded amount of output with a slow reader on the pipe, as the scan of chunks apart does.
@Suite(.serialized) struct OverlappingMemoryBoundTests {
    static let records = 40_000

    /// The records of four chunks of 10,000 records with 4 KiB messages whose times interleave
    /// (chunk k holds base + (4i + k) ms): 170 MB of NDJSON.
    static func interleavedChunks() -> [[LogRecord]] {
        let generated = Array(RecordGenerator(GeneratorOptions(count: records, seed: 17)))
        let base = generated[0].timestamp
        return (0..<4).map { chunk in
            var batch = Array(generated[chunk * 10_000..<(chunk + 1) * 10_000])
            for index in batch.indices {
                batch[index].timestamp = base + Int64(index * 4 + chunk) * 1_000_000
                batch[index].eventMessage += " " + String(repeating: "padding ", count: 512)
            }
            return batch
        }
    }

    /// Those chunks: 0 and 1 sealed, 2 and 3 closed unsealed.
    static let store: (folder: TemporaryDirectory, url: URL) = {
        let folder = try! TemporaryDirectory("overlapping-memory-bound")
        let url = folder.file("store")
        let store = try! LogStore.open(at: url, create: true, options: LogStore.Options(sealOnRotation: false))
        for (chunk, batch) in interleavedChunks().enumerated() {
            try! store.append(batch)
            try! store.rotate()
            if chunk == 1 { try! store.sealPendingChunks() }
        }
        try! store.close()
        return (folder, url)
    }()

    /// The same records in diagd's bursts: four chunks in 64 KiB pages under `Persist/Burst/`,
    /// none sealed, so that each is sorted by time as it is read (no timestamp index). A sort
    /// kept 250 pages in memory before spilling, 16 MiB in such pages, four at once: 152 MiB of
    /// RSS for a common `CONTAINS` over seven such chunks, until `Database.boundSortMemory`.
    static let burstStore: (folder: TemporaryDirectory, url: URL) = {
        let folder = try! TemporaryDirectory("overlapping-memory-bound-bursts")
        let url = folder.file("store")
        let store = try! LogStore.open(at: url, create: true, options: LogStore.Options(
            sealOnRotation: false, foldsWALAtSeal: true, writesBurstsInLargePages: true))
        for batch in interleavedChunks() {
            try! store.append(packed: PackedRecords(batch))
            try! store.rotate()
        }
        try! store.close()
        return (folder, url)
    }()

    @Test func burstsNotSealedYetAreReadInBoundedMemory() throws {
        let chunks = try LogStore.open(at: Self.burstStore.url, options: .readOnly).info.chunks
        #expect(chunks.count == 4 && chunks.allSatisfy { !$0.sealed })
        let burstFolder = StoreLayout.burstFolderURL(Self.burstStore.url)
        #expect(chunks.allSatisfy { FileManager.default.fileExists(atPath: burstFolder.appendingPathComponent($0.file).path) })
        let run = try ShowMemoryBoundTests().slowlyRead(["show", "--info", "--debug", "--style", "ndjson",
                                                         "--predicate", "message CONTAINS[c] \"padding\"", Self.burstStore.url.path])
        #expect(run.status == 0)
        #expect(run.lines == Self.records)
        #expect(run.peak > 0, "VmHWM was read")
        #expect(run.peak < ShowMemoryBoundTests.bound, "peak RSS \(run.peak >> 20) MiB")
    }

    @Test(arguments: [
        ["--style", "ndjson"],
        ["--style", "ndjson", "--predicate", "subsystem != \"x\""],
    ])
    func peakMemoryStaysUnderTheBoundWithASlowReader(style: [String]) throws {
        let chunks = try LogStore.open(at: Self.store.url, options: .readOnly).info.chunks
        #expect(chunks.filter(\.sealed).count == 2 && chunks.count >= 4, "two sealed chunks beside unsealed ones")
        let run = try ShowMemoryBoundTests().slowlyRead(["show", "--info", "--debug"] + style + [Self.store.url.path])
        #expect(run.status == 0)
        #expect(run.lines == Self.records)
        #expect(run.bytes > 2 * ShowMemoryBoundTests.bound, "the output (\(run.bytes) bytes) is far larger than the bound")
        #expect(run.peak > 0, "VmHWM was read")
        #expect(run.peak < ShowMemoryBoundTests.bound, "\(style): peak RSS \(run.peak >> 20) MiB")
    }
}
