import Glibc

/// The sender of a datagram as the kernel reports it (`SCM_CREDENTIALS`, with `SO_PASSCRED` set on
/// the receiving socket), turned into a `PeerIdentity` with the process's name and executable
/// from `/proc`.
///
/// A busy sender sends many datagrams: its `/proc` entries are read once and kept for a second
/// (a PID reused within that second would borrow the previous process's name; the PID and UID
/// themselves always come fresh from the kernel).
struct SenderCredentials {
    /// `SCM_CREDENTIALS` of <sys/socket.h>, which Swift's Glibc module does not import.
    static let credentialsMessageType: Int32 = 2
    /// Room for one `cmsghdr` (16 bytes on 64-bit Linux) and a `struct ucred` (12, padded to 16).
    static let controlSize = 64

    private struct Cached {
        var process: String?
        var imagePath: String?
        var readAt: Int64
    }

    private var cache: [Int32: Cached] = [:]

    /// The credentials in a control buffer `recvmsg` filled, or nil when it holds none.
    static func read(control: UnsafeRawBufferPointer, length: Int) -> (pid: Int32, uid: UInt32, gid: UInt32)? {
        var offset = 0
        let headerSize = MemoryLayout<Int>.size + 2 * MemoryLayout<Int32>.size
        while offset + headerSize <= length {
            let messageLength = control.loadUnaligned(fromByteOffset: offset, as: Int.self)
            let level = control.loadUnaligned(fromByteOffset: offset + MemoryLayout<Int>.size, as: Int32.self)
            let type = control.loadUnaligned(fromByteOffset: offset + MemoryLayout<Int>.size + 4, as: Int32.self)
            guard messageLength >= headerSize, offset + messageLength <= length else { return nil }
            if level == SOL_SOCKET && type == credentialsMessageType && messageLength >= headerSize + 12 {
                let data = offset + headerSize
                // PID 0: sent before SO_PASSCRED was on (a socket systemd made without
                // PassCredentials=yes); the kernel vouches for nobody, so no identity is given.
                guard control.loadUnaligned(fromByteOffset: data, as: Int32.self) != 0 else { return nil }
                return (
                    control.loadUnaligned(fromByteOffset: data, as: Int32.self),
                    control.loadUnaligned(fromByteOffset: data + 4, as: UInt32.self),
                    control.loadUnaligned(fromByteOffset: data + 8, as: UInt32.self))
            }
            // CMSG_NXTHDR: the next header starts at the length rounded up to a size_t.
            let alignment = MemoryLayout<Int>.size
            offset += (messageLength + alignment - 1) / alignment * alignment
        }
        return nil
    }

    /// The identity of `pid`, with the kernel's UID and GID and `/proc`'s name and executable.
    mutating func identity(pid: Int32, uid: UInt32, gid: UInt32, now: Int64) -> PeerIdentity {
        let entry: Cached
        if let cached = cache[pid], now - cached.readAt < 1_000_000_000 {
            entry = cached
        } else {
            if cache.count >= 4096 { cache.removeAll(keepingCapacity: true) }
            entry = Cached(process: PeerIdentity.processName(pid), imagePath: PeerIdentity.executablePath(pid), readAt: now)
            cache[pid] = entry
        }
        return PeerIdentity(
            processID: Int64(pid), userID: Int64(uid), groupID: Int64(gid), process: entry.process, processImagePath: entry.imagePath)
    }
}
