import Foundation

/// An exclusive `flock` on `<store>/writer.lock`, held while a `LogStore` appends, so that two
/// writers (two diagd, or diagd and `diag import`) never number chunks over each other. The
/// kernel drops it when the process dies, so a crash leaves no stale lock.
final class WriterLock {
    let path: String
    private let descriptor: Int32

    /// `waiting`: block until the lock is free instead of failing at once (readers that
    /// upgrade an old store take it so that only one of them migrates; `openForReading`).
    init(storeURL: URL, waiting: Bool = false) throws {
        path = StoreLayout.writerLockURL(storeURL).path
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError(.io, path: path, reason: "cannot open the writer lock: \(String(cString: strerror(errno)))")
        }
        var taken = flock(descriptor, waiting ? LOCK_EX : LOCK_EX | LOCK_NB)
        while taken != 0, errno == EINTR { taken = flock(descriptor, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) }
        guard taken == 0 else {
            let reason = errno == EWOULDBLOCK
                ? "another process is writing this store (it holds the writer lock); stop it or write elsewhere"
                : "cannot take the writer lock: \(String(cString: strerror(errno)))"
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
