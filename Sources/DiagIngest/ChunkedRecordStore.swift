import DiagModel
import DiagStore
import Foundation
import Glibc

/// The writer thread's view of a `LogStore`: appends on the writer thread; the sealing of closed
/// chunks and their message search indexes (seconds for a big chunk) on a low-priority thread of
/// their own, started as soon as a chunk closes, so that a burst is slowed by them only as much
/// as the scheduler gives that thread (a closed chunk stays readable meanwhile, scanned instead
/// of searched). A restart picks up what was left undone.
final class ChunkedRecordStore: RecordStore {
    let store: LogStore
    private let finisher: ClosedChunkFinisher
    let maximumSize: Int64
    /// Seconds.
    let maximumAge: Int64?
    let report: @Sendable (MessageType, String) -> Void

    init(
        directory: String, chunkSize: Int64, maximumSize: Int64, maximumAge: Int64?,
        report: @escaping @Sendable (MessageType, String) -> Void
    ) throws {
        store = try LogStore.open(
            at: URL(fileURLWithPath: directory), create: true,
            options: LogStore.Options(chunkSizeLimit: chunkSize, sealOnRotation: false))
        finisher = ClosedChunkFinisher(store: store, label: "diagd.sealing") { ThreadPriority.lower() }
        self.maximumSize = maximumSize
        self.maximumAge = maximumAge
        self.report = report
    }

    func append(_ records: [LogRecord]) throws {
        try store.append(records)
    }

    func maintain(idle: Bool) throws {
        let expired = try store.expire(maxTotalBytes: maximumSize, maxAge: maximumAge.map { $0 * 1_000_000_000 })
        if !expired.removedChunks.isEmpty {
            report(.default, "quota: dropped \(expired.removedChunks.count) oldest chunks (\(expired.removedRecords) records, \(expired.removedBytes) bytes): \(expired.removedChunks.joined(separator: ", "))")
        }
        if let error = finisher.takeError() {
            report(.error, "sealing or indexing a closed chunk failed (it stays readable, unindexed): \(error)")
        }
        // A closed chunk is finished as soon as it is closed, under load too (issue 15): waiting
        // for a lull (or a backlog of three, as before) left most chunks of a busy daemon
        // unsealed and unindexed, so every query scanned them on one thread. The finisher's
        // thread is niced, so ingest keeps the CPU it needs; it never waits for the finisher.
        guard store.closedChunksAwaitingSearchIndex > 0, finisher.isIdle else { return }
        finisher.requestPass()
    }

    var needsMaintenance: Bool {
        store.closedChunksAwaitingSearchIndex > 0 || !finisher.isIdle
    }

    /// A tenth of the maximum age, between a second and an hour: chunks are dropped at most
    /// that late.
    var idleCheckInterval: Double? {
        maximumAge.map { min(3600, max(1, Double($0) / 10)) }
    }

    /// Lets the chunk being indexed finish (bounded: one chunk), then closes the store; what is
    /// left is indexed after the next start.
    func close() throws {
        finisher.cancel()
        try? finisher.wait()
        try store.close()
    }
}

@available(*, unavailable) extension ChunkedRecordStore: Sendable {}

enum ThreadPriority {
    /// Raises the calling thread's nice value (Linux schedules threads one by one).
    static func lower(by increment: Int32 = 10) {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return }
        let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let tid = link.split(separator: "/").last.flatMap({ id_t($0) }) else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), tid, increment)
    }
}
