import DiagModel
import DiagProtocol
import Glibc

/// `--syslog-socket PATH`: a Unix datagram socket like `/dev/log` (mode 0666: anyone may log,
/// and the kernel says who did), read in turns on the syslog loop's workers (`SyslogService`)
/// when the loop sees datagrams waiting.
///
/// Each datagram is one message, at most `maximumDatagram` bytes; a longer one is refused
/// whole (counted, its sender named in diagd's log), never cut. The sender's PID, UID and
/// executable come from `SCM_CREDENTIALS`.
final class SyslogDatagramSocket: @unchecked Sendable {
    // Safe: `credentials`, `rows` and `control` are used by the worker holding the socket's turn only
    // (one-shot registration); `descriptor` is closed by `close()`, after the workers stopped.
    static let maximumDatagram = 64 << 10
    /// Datagrams read before their records are routed as one batch.
    static let batchSize = 256
    /// Batches in one turn before the socket goes back in line behind the TCP connections.
    static let batchesPerTurn = 4

    let path: String
    let descriptor: Int32
    /// A socket systemd passed is systemd's: diagd neither binds nor removes it.
    let inherited: Bool
    private let intake: SyslogIntake
    private var credentials = SenderCredentials()
    private var rows = SyslogRowReader()
    private let control = UnsafeMutableRawBufferPointer.allocate(byteCount: SenderCredentials.controlSize, alignment: 16)

    init(path: String, intake: SyslogIntake) throws(IngestError) {
        self.path = path
        self.intake = intake
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

    deinit { control.deallocate() }

    /// A worker's turn: reads the datagrams waiting (a few batches at most), routes each batch.
    /// `buffer` holds at least `maximumDatagram + 1` bytes.
    func serve(buffer: UnsafeMutableRawBufferPointer) {
        for _ in 0..<Self.batchesPerTurn {
            var batch = intake.beginBatch(receiptTime: DaemonLog.now())
            var read = 0
            while read < Self.batchSize, receive(buffer, control, &credentials, &rows, &batch) { read += 1 }
            intake.finish(&batch, wait: false)
            if read < Self.batchSize { return }
        }
    }

    /// After the workers stopped: closes the socket, and removes its file when diagd made it.
    func close() {
        Glibc.close(descriptor)
        if !inherited { unlink(path) }
    }

    /// Reads one datagram without waiting; false when none is waiting.
    private func receive(
        _ buffer: UnsafeMutableRawBufferPointer, _ control: UnsafeMutableRawBufferPointer,
        _ credentials: inout SenderCredentials, _ rows: inout SyslogRowReader, _ batch: inout LineBatch
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
        func who() -> String { peer.map { "pid \($0.processID) (\($0.process ?? "?"), uid \($0.userID))" } ?? "an unknown sender" }
        guard count <= Self.maximumDatagram, header.msg_flags & Int32(MSG_TRUNC) == 0 else {
            intake.invalid("a datagram from \(who()) is over \(Self.maximumDatagram) bytes (64 KiB); it was refused whole")
            return true
        }
        let datagram = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        if batch.takeSyslog(datagram, with: &rows, transport: "unix", peer: nil, identity: peer, size: count + 256) { return true }
        do {
            let message = try SyslogParser.parse(datagram)
            batch.add(message.record(peer: peer, receiptTime: batch.receiptTime, transport: "unix"), size: count + 256)
        } catch {
            intake.invalid("a datagram from \(who()): \(error.description)")
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
