import Foundation

/// An exclusive `flock` on `<store>/writer.lock`, held while a `LogStore` appends, so that two
/// writers (two diagd, or diagd and `diag import`) never number chunks over each other. The
/// kernel drops it when the process dies, so a crash leaves no stale lock.
final class WriterLock {
    let path: String
    private let descriptor: Int32

    /// `waitingUpTo`: seconds to wait for a lock another process holds, looking again every
    /// 20 ms, before failing as at once (readers that upgrade an old store take it so that only
    /// one of them migrates, and wait a bounded time: a diagd appending holds it until it
    /// stops; `openForReading`).
    init(storeURL: URL, waitingUpTo seconds: Double = 0) throws {
        path = StoreLayout.writerLockURL(storeURL).path
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError(.io, path: path, reason: "cannot open the writer lock: \(String(cString: strerror(errno)))")
        }
        let deadline = ContinuousClock.now + .seconds(seconds)
        var failure: Int32 = 0
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                failure = 0
                break
            }
            failure = errno
            if failure == EINTR { continue }
            guard failure == EWOULDBLOCK, ContinuousClock.now < deadline else { break }
            usleep(20_000)
        }
        guard failure == 0 else {
            let reason = failure == EWOULDBLOCK
                ? "another process is writing this store (it holds the writer lock); stop it or write elsewhere"
                : "cannot take the writer lock: \(String(cString: strerror(failure)))"
            close(descriptor)
            throw StoreError(.locked, path: path, reason: reason)
        }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

@available(*, unavailable)
extension WriterLock: Sendable {}
