import Foundation
import TestSupport
import Glibc
import Synchronization

/// A bare TCP receiver on loopback that keeps every byte it is sent (all connections, one after
/// the other): what a forward wrote, to be parsed with `SyslogFrames`.
final class SyslogFrameCollector: Sendable {
    let port: UInt16
    private let listener: Int32
    private let received = Mutex<[UInt8]>([])
    private let stopped = Atomic<Bool>(false)

    init() throws {
        let listener = socket(AF_INET, Spawning.closeOnExec(SOCK_STREAM), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 && listen(listener, 8) == 0
            }
        }
        guard bound else {
            close(listener)
            throw ReceiverFailure("cannot listen on loopback: \(String(cString: strerror(errno)))")
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in receive() }
        thread.start()
    }

    var bytes: [UInt8] { received.withLock { $0 } }

    /// The messages received so far, whole frames only.
    func messages() throws -> [SyslogFrames.Message] {
        var whole = bytes
        var offset = 0
        while let space = whole[offset...].firstIndex(of: UInt8(ascii: " ")),
              let length = Int(String(decoding: whole[offset..<space], as: UTF8.self)), space + 1 + length <= whole.count {
            offset = space + 1 + length
        }
        whole.removeSubrange(offset...)
        return try SyslogFrames.parse(whole)
    }

    /// Stops accepting; the receiving thread ends once the connection it reads closes.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func receive() {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !stopped.load(ordering: .relaxed) {
            let connection = Spawning.accept(listener)
            guard connection >= 0 else { break }
            while true {
                let count = recv(connection, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                received.withLock { $0 += buffer[..<count] }
            }
            close(connection)
        }
        close(listener)
    }
}
