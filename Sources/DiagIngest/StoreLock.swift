import Glibc

/// An exclusive `flock` on `diagd.lock` in the store: one daemon per store, released by the kernel
/// when the process dies, so a crashed daemon never blocks its successor.
final class StoreLock {
    let path: String
    private let descriptor: Int32

    init(storeDirectory: String) throws(IngestError) {
        path = storeDirectory + "/diagd.lock"
        // A local until locked: a throw after every stored property is set runs deinit, which
        // would close the descriptor again (by then perhaps another thread's file).
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .system("cannot open the lock file \(path)") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = Self.readHolder(descriptor)
            Glibc.close(descriptor)
            if code == EWOULDBLOCK {
                let who = holder.map { " (pid \($0))" } ?? ""
                throw IngestError("another diagd\(who) is already running on the store \(storeDirectory)")
            }
            throw .system("cannot lock \(path)", errno: code)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
    }

    deinit { Glibc.close(descriptor) }

    private static func readHolder(_ descriptor: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer[0..<count], as: UTF8.self).trimmingSpaces)
    }
}

@available(*, unavailable) extension StoreLock: Sendable {}

extension String {
    var trimmingSpaces: String {
        String(self.drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }
}
