import DiagModel
import DiagProtocol
import Foundation
import Glibc

/// `--syslog-socket PATH`: a Unix datagram socket like `/dev/log` (mode 0666: anyone may log,
/// and the kernel says who did), read by one thread.
///
/// Each datagram is one message, at most `maximumDatagram` bytes; a longer one is refused
/// whole (counted, its sender named in diagd's log), never cut. The sender's PID, UID and
/// executable come from `SCM_CREDENTIALS`.
final class SyslogDatagramSocket: @unchecked Sendable {
    // Safe: `descriptor` is set in init and closed by the reading thread only, after its loop.
    static let maximumDatagram = 64 << 10
    /// Datagrams read before their records are routed as one batch.
    static let batchSize = 256

    let path: String
    private let descriptor: Int32
    /// A socket systemd passed is systemd's: diagd neither binds nor removes it.
    let inherited: Bool
    private let intake: SyslogIntake
    private let stopRequest: StopRequest
    private let finished = DispatchSemaphore(value: 0)

    init(path: String, intake: SyslogIntake, stopRequest: StopRequest) throws(IngestError) {
        self.path = path
        self.intake = intake
        self.stopRequest = stopRequest
        if let descriptor = InheritedSocket.datagram(boundTo: path) {
            var on: Int32 = 1
            var bufferSize: Int32 = 8 << 20
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &bufferSize, socklen_t(MemoryLayout<Int32>.size))
            guard setsockopt(descriptor, SOL_SOCKET, SO_PASSCRED, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                throw .system("cannot set SO_PASSCRED on the syslog socket \(path) systemd passed")
            }
            self.descriptor = descriptor
            inherited = true
            return
        }
        inherited = false
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: path) } catch { throw IngestError(error.description) }
        try Self.removeStale(path: path, address: address)
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .system("cannot create the syslog socket") }
        var on: Int32 = 1
        // A large receive buffer absorbs bursts while the writer commits.
        var bufferSize: Int32 = 8 << 20
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &bufferSize, socklen_t(MemoryLayout<Int32>.size))
        guard setsockopt(descriptor, SOL_SOCKET, SO_PASSCRED, &on, socklen_t(MemoryLayout<Int32>.size)) == 0,
              address.withSockaddr({ bind(descriptor, $0, $1) }) == 0
        else {
            let code = errno
            Glibc.close(descriptor)
            throw .system("cannot bind the syslog socket \(path)", errno: code)
        }
        guard chmod(path, 0o666) == 0 else {
            let code = errno
            Glibc.close(descriptor); unlink(path)
            throw .system("cannot set mode 666 on \(path)", errno: code)
        }
        self.descriptor = descriptor
    }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "diagd-syslog-dgram"
        thread.start()
    }

    /// Waits until the thread has stopped (after `stopRequest`) and the socket is gone.
    func waitUntilFinished() { finished.wait() }

    private func run() {
        var credentials = SenderCredentials()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.maximumDatagram + 1, alignment: 16)
        let control = UnsafeMutableRawBufferPointer.allocate(byteCount: SenderCredentials.controlSize, alignment: 16)
        defer {
            buffer.deallocate(); control.deallocate()
            Glibc.close(descriptor)
            if !inherited { unlink(path) }
        }
        while !stopRequest.isRequested {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 250)
            let now = DaemonLog.now()
            intake.reportIfDue(now: now)
            guard ready > 0 else { continue }
            var batch = intake.beginBatch(receiptTime: now)
            for _ in 0..<Self.batchSize {
                guard receive(buffer, control, &credentials, &batch) else { break }
            }
            intake.finish(&batch, wait: false)
        }
        intake.reportIfDue(now: DaemonLog.now(), force: true)
    }

    /// Reads one datagram without waiting; false when none is waiting.
    private func receive(
        _ buffer: UnsafeMutableRawBufferPointer, _ control: UnsafeMutableRawBufferPointer,
        _ credentials: inout SenderCredentials, _ batch: inout LineBatch
    ) -> Bool {
        var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
        var header = msghdr()
        let count = withUnsafeMutablePointer(to: &vector) { vectorPointer in
            header.msg_iov = vectorPointer
            header.msg_iovlen = 1
            header.msg_control = control.baseAddress
            header.msg_controllen = control.count
            return recvmsg(descriptor, &header, Int32(MSG_DONTWAIT))
        }
        guard count >= 0 else { return errno == EINTR }
        let sender = SenderCredentials.read(control: UnsafeRawBufferPointer(control), length: Int(header.msg_controllen))
        let peer = sender.map { credentials.identity(pid: $0.pid, uid: $0.uid, gid: $0.gid, now: batch.receiptTime) }
        let who = peer.map { "pid \($0.processID) (\($0.process ?? "?"), uid \($0.userID))" } ?? "an unknown sender"
        guard count <= Self.maximumDatagram, header.msg_flags & Int32(MSG_TRUNC) == 0 else {
            intake.invalid("a datagram from \(who) is over \(Self.maximumDatagram) bytes (64 KiB); it was refused whole")
            return true
        }
        do {
            let message = try SyslogParser.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            batch.add(message.record(peer: peer, receiptTime: batch.receiptTime, transport: "unix"), size: count + 256)
        } catch {
            intake.invalid("a datagram from \(who): \(error.description)")
        }
        return true
    }

    /// Unlinks a socket file nobody reads; refuses a live one and anything that is not a socket.
    private static func removeStale(path: String, address: UnixSocketAddress) throws(IngestError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw IngestError("\(path) exists and is not a socket; remove it or choose another --syslog-socket")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw .system("cannot create a Unix socket") }
        defer { Glibc.close(probe) }
        if address.withSockaddr({ connect(probe, $0, $1) }) == 0 {
            throw IngestError("another process reads the syslog socket \(path) (a syslog daemon?); stop it first or choose another --syslog-socket")
        }
        guard unlink(path) == 0 || errno == ENOENT else { throw .system("cannot remove the stale socket \(path)") }
    }
}
