import Glibc

/// The kernel's thread ID of the calling thread (what `gettid` returns), read once per thread
/// from `/proc/thread-self` and kept in a thread-specific slot.
enum CurrentThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var id: Int64 {
        if let stored = pthread_getspecific(key) { return Int64(Int(bitPattern: stored)) }
        let tid = readThreadID()
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: Int(tid)))
        return tid
    }

    /// `/proc/thread-self` links to `PID/task/TID`.
    private static func readThreadID() -> Int64 {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return Int64(getpid()) }
        let text = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { Int64($0) } ?? Int64(getpid())
    }
}

/// The real-time clock in nanoseconds since the epoch.
enum Clock {
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
