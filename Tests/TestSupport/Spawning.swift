import Foundation
import Glibc

/// Starting child processes from a test process that runs tests in parallel, without one
/// child inheriting another's descriptors.
///
/// Foundation's `Process.run` on Linux does not spawn with close-on-exec by default: it lists
/// the descriptors open at that moment (`/proc/self/fd`) and closes them in the child, and the
/// socket pair through which it learns that the child ended is created without `FD_CLOEXEC`.
/// A descriptor another thread opens between the listing and the spawn — another `Process`'s
/// socket pair, a pipe, a client socket — goes to the child (with `run()` alone, 1 to 3 of the
/// 500 children `SpawningTests` starts held others' end-of-life sockets, in 3 of 5 runs). A
/// child that lives long (a diagd of another test) then keeps a finished child unreaped
/// (`isRunning` stays true, `waitUntilExit` does not return) for as long as it runs, and a
/// leaked pipe or client socket keeps its reader from seeing the end. Two full runs hung so,
/// with zombies of diagd and diag, once tests that open dozens of sockets at once were added.
/// So every spawn in the tests goes through one lock — `Process.spawn()`, and
/// `Spawning.exclusively` around the tests' own `posix_spawn` calls (rsyslogd started without
/// the lock held a `Process`'s socket: a full run's `sleep` stayed unreaped past 30 s) — and the
/// descriptors the tests make for themselves are close-on-exec from birth.
public enum Spawning {
    private static let lock = NSLock()

    /// Runs `body` while no test spawns a process.
    public static func exclusively<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// A pipe whose two ends are close-on-exec: a child gets one only where it is made its
    /// standard input, output or error (`dup2` clears the flag on the copy).
    public static func pipe() -> Pipe {
        exclusively {
            let pipe = Pipe()
            for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            }
            return pipe
        }
    }

    /// `accept(2)` of a connection whose descriptor is close-on-exec from birth (accept4).
    public static func accept(_ listener: Int32) -> Int32 {
        acceptCloseOnExec(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
    }

    /// `SOCK_CLOEXEC` with a socket type, for `socket(2)`.
    public static func closeOnExec(_ type: __socket_type) -> Int32 {
        Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    }
}

/// glibc's accept4(2), which Swift's Glibc module leaves out (a GNU extension).
@_silgen_name("accept4")
private func acceptCloseOnExec(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?, _ flags: Int32) -> Int32

extension Process {
    /// `run()`, one spawn at a time across the test process (see `Spawning`).
    public func spawn() throws {
        try Spawning.exclusively { try run() }
    }

    /// Waits at most `seconds` for the process to end and be reaped; false when it was not, with
    /// a line on stderr saying what the kernel says of it. A child that ended but that Foundation
    /// never reaped (state Z: some other process holds its end-of-life socket, see `Spawning`)
    /// made `waitUntilExit` wait for ever, and a whole test run with it.
    public func waitForExit(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while isRunning {
            guard Date() < deadline else {
                let stat = (try? String(contentsOfFile: "/proc/\(processIdentifier)/stat", encoding: .utf8)) ?? "(gone)"
                let state = stat.lastIndex(of: ")").map { String(stat[stat.index($0, offsetBy: 2)...].prefix(1)) } ?? "?"
                FileHandle.standardError.write(Data("""
                    test support: \(executableURL?.lastPathComponent ?? "a child") (pid \(processIdentifier)) not reaped after \
                    \(seconds) s; its state: \(state)\(state == "Z" ? " (ended, but Foundation never saw it end)" : "")

                    """.utf8))
                return false
            }
            usleep(10_000)
        }
        return true
    }
}
