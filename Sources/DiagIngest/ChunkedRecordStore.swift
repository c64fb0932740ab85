import DiagModel
import DiagStore
import Foundation

/// The writer thread's view of a `LogStore`: appends on the writer thread, sealing of closed
/// chunks (index builds, seconds for a big chunk) on a thread of its own so ingest goes on.
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

    func maintain() throws {
        guard sealingIdle.wait(timeout: .now()) == .success else { return }
        let store = store
        let report = report
        let idle = sealingIdle
        sealing.async {
            defer { idle.signal() }
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
