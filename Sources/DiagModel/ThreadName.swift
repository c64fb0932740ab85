import Glibc

/// The name the kernel shows for the calling thread, the one way every long-lived thread of the
/// package is named (`top -H`, `ps -L`, `perf`,
/// `/proc/PID/task/TID/comm`). Foundation's `Thread.name` on Linux stays inside Foundation, so
/// every thread of diagd showed as "diagd" and its index builds as "-qos.overcommit" (Dispatch's
/// worker name): a user asking which thread is busy could not tell the writer from a
/// connection worker.
public enum ThreadName {
    /// Names the calling thread; the kernel keeps at most 15 bytes (longer names are cut, at a
    /// character boundary). Best effort: a failure (no /proc) leaves the name as it was.
    public static func setCurrent(_ name: String) {
        var bytes: [UInt8] = []
        for scalar in name.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            guard bytes.count + encoded.count <= 15 else { break }
            bytes += encoded
        }
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// The calling thread's name as the kernel has it, "" when it cannot be read.
    public static var current: String {
        let descriptor = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return "" }
        // The kernel ends the name with a newline.
        let end = buffer[count - 1] == UInt8(ascii: "\n") ? count - 1 : count
        return String(decoding: buffer[0..<end], as: UTF8.self)
    }
}
