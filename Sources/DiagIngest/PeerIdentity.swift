import DiagModel
import Glibc

/// Who is on the other end of a connection, from the kernel: never from what the client writes.
public struct PeerIdentity: Sendable, Hashable {
    public var processID: Int64
    public var userID: Int64
    public var groupID: Int64
    /// `/proc/PID/comm`: the name the kernel keeps for the process.
    public var process: String?
    /// `/proc/PID/exe`: the executable's path; nil when the kernel hides it (another user's process).
    public var processImagePath: String?

    public init(processID: Int64, userID: Int64, groupID: Int64, process: String?, processImagePath: String?) {
        self.processID = processID
        self.userID = userID
        self.groupID = groupID
        self.process = process
        self.processImagePath = processImagePath
    }

    /// Reads `SO_PEERCRED` of a connected Unix socket and the peer's `/proc` entries.
    static func of(socket descriptor: Int32) throws(IngestError) -> PeerIdentity {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } — not imported by Swift's Glibc module.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw .system("cannot read SO_PEERCRED of a client")
        }
        let pid = credentials.0
        return PeerIdentity(
            processID: Int64(pid), userID: Int64(credentials.1), groupID: Int64(credentials.2),
            process: processName(pid), processImagePath: executablePath(pid))
    }

    /// The current process, for the daemon's own records.
    static var current: PeerIdentity {
        let pid = getpid()
        return PeerIdentity(
            processID: Int64(pid), userID: Int64(getuid()), groupID: Int64(getgid()),
            process: "diagd", processImagePath: executablePath(pid))
    }

    static func processName(_ pid: Int32) -> String? {
        let descriptor = open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        var end = count
        if buffer[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        return String(decoding: buffer[0..<end], as: UTF8.self)
    }

    static func executablePath(_ pid: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBytes { raw in
            readlink("/proc/\(pid)/exe", raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count - 1)
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}

extension PeerIdentity {
    /// Overwrites whatever the client claimed with what the kernel says.
    func stamp(_ record: inout LogRecord) {
        record.process = process
        record.processID = processID
        record.userID = userID
        record.processImagePath = processImagePath
    }
}
