import DiagModel
import DiagStore
import Foundation
import Glibc

/// diagd's writer alone: the same records packed as diagd's connection threads pack them,
/// appended to a store with diagd's options (WAL folded at the seal, bursts in 64 KiB pages, no
/// seal on this thread) a batch a transaction; no socket, no parsing, no seal. What it times
/// is the CPU of the appending thread, the writer's share of `Benchmarks/ingest.sh`.
enum StoreAppendLoop {
    static func run(records: [LogRecord], folder: String, batch: Int) throws -> (seconds: Double, cpu: Double) {
        try? FileManager.default.removeItem(atPath: folder)
        var batches: [PackedRecords] = []
        var index = 0
        while index < records.count {
            let end = min(index + batch, records.count)
            batches.append(PackedRecords(records[index..<end]))
            index = end
        }
        let options = LogStore.Options(sealOnRotation: false, foldsWALAtSeal: true, writesBurstsInLargePages: true)
        let store = try LogStore.open(at: URL(fileURLWithPath: folder), create: true, options: options)
        let started = Date()
        let cpuStarted = CPUSharePacer.seconds(CLOCK_THREAD_CPUTIME_ID)
        for packed in batches { try store.append(packed: packed) }
        return (Date().timeIntervalSince(started), CPUSharePacer.seconds(CLOCK_THREAD_CPUTIME_ID) - cpuStarted)
    }
}
