import DiagModel
import Foundation

/// The daemon's own diagnostics: a line on stderr, and a record under process `diagd` in the
/// store (offered without waiting, so logging never blocks the thread that reports).
final class DaemonLog: Sendable {
    private let identity = PeerIdentity.current
    private let queue: RecordQueue

    init(queue: RecordQueue) {
        self.queue = queue
    }

    func log(_ level: MessageType, _ message: String, category: String = "daemon") {
        FileHandle.standardError.write(Data("diagd: \(level.name.lowercased()): \(message)\n".utf8))
        let now = Self.now()
        var record = LogRecord(
            timestamp: now, messageType: level, process: identity.process, processID: identity.processID,
            processImagePath: identity.processImagePath, userID: identity.userID, sender: "DiagIngest",
            subsystem: "org.diagnostics.diagd", category: category, eventMessage: message)
        record.receiptTime = now
        _ = queue.offer(record)
    }

    /// Nanoseconds since the epoch, from the real-time clock.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
