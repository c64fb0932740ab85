import DiagProtocol
import Foundation
import Glibc

/// `diag-bench-ingest datagrams`: each line of a file sent as one datagram to a Unix datagram
/// socket (diagd's `--syslog-socket`, rsyslog's imuxsock), on a blocking connected socket, as
/// glibc's `syslog()` sends: when the receiver's queue is full the kernel makes the sender wait.
/// For Benchmarks/syslog-socket.sh, where a Python sender (one `send` call some 10 µs) bounded
/// both receivers.
enum DatagramSender {
    /// Sends every line of `path` (without its LF) to the socket at `socket`; returns the count.
    static func run(lines path: String, socket: String) throws -> Int {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let address = try UnixSocketAddress(path: socket)
        let connected = address.withSockaddr { connect(descriptor, $0, $1) }
        guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var sent = 0
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                if end > start {
                    while send(descriptor, bytes.baseAddress! + start, end - start, 0) < 0 {
                        guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                    }
                    sent += 1
                }
                start = end + 1
            }
        }
        return sent
    }
}
