import DiagModel
import DiagStore
import Foundation
import Glibc

/// The writer thread's view of a `LogStore`: appends on the writer thread, sealing of closed
/// chunks (index builds, seconds for a big chunk) on a low-priority thread of its own, in lulls
/// of ingest, so that a burst is not slowed by index builds (unsealed chunks stay readable).
final class ChunkedRecordStore: RecordStore {
    let store: LogStore
    private let sealing = DispatchQueue(label: "diagd.sealing")
    private let sealingIdle = DispatchSemaphore(value: 1)
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
        self.maximumSize = maximumSize
        self.maximumAge = maximumAge
        self.report = report
    }

    func append(_ records: [LogRecord]) throws {
        try store.append(records)
    }

    /// Closed chunks left unindexed while records keep arriving; past this many, they are
    /// sealed even under load so that the backlog stays bounded.
    static let sealingBacklog = 3

    func maintain(idle: Bool) throws {
        let expired = try store.expire(maxTotalBytes: maximumSize, maxAge: maximumAge.map { $0 * 1_000_000_000 })
        if !expired.removedChunks.isEmpty {
            report(.default, "quota: dropped \(expired.removedChunks.count) oldest chunks (\(expired.removedRecords) records, \(expired.removedBytes) bytes): \(expired.removedChunks.joined(separator: ", "))")
        }
        let unsealed = store.info.chunks.filter { !$0.sealed }.count - 1
        guard unsealed > 0, idle || unsealed >= Self.sealingBacklog else { return }
        guard sealingIdle.wait(timeout: .now()) == .success else { return }
        let store = store
        let report = report
        let idle = sealingIdle
        sealing.async {
            defer { idle.signal() }
            ThreadPriority.lower()
            do {
                try store.sealPendingChunks()
            } catch {
                report(.error, "sealing a closed chunk failed (it stays readable, unindexed): \(error)")
            }
        }
    }

    func close() throws {
        sealing.sync {}
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
