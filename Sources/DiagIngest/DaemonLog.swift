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
        // The reporting thread, as any client's records carry theirs; DiagIngest is linked
        // into diagd's own executable, which is its image.
        record.threadID = Self.threadID()
        record.senderImagePath = identity.processImagePath
        _ = queue.offer(record)
    }

    /// The calling thread's kernel ID: `/proc/thread-self` links to `PID/task/TID` (Swift's
    /// Glibc module leaves out gettid). The daemon reports rarely, so it is read each time.
    static func threadID() -> Int64? {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { Int64($0) }
    }

    /// Nanoseconds since the epoch, from the real-time clock.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
