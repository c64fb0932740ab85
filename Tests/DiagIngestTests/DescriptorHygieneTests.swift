import Foundation
import Glibc
import Testing
import TestSupport

/// A descriptor is closed once. Closing one twice is harmless only until another thread opens a
/// file in between and gets the same number: the second close then takes that file away, and the
/// thread's next read or write fails ("SQLite error 10: disk I/O error") or lands in whatever file
/// takes the number next. In Swift, a throwing class init that closes its descriptor and throws
/// after every stored property is set does exactly that: the throw runs deinit, which closes again.
///
/// The failure paths below run under a preloaded `close` that writes down every close of a
/// descriptor that was not open (EBADF) in the process it was loaded into, with a backtrace.
@Suite(.serialized)
struct DescriptorHygieneTests {
    static let shimSource = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <execinfo.h>
        #include <fcntl.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <unistd.h>
        static pid_t loaded_in;
        __attribute__((constructor)) static void remember(void) { loaded_in = getpid(); }
        int close(int fd) {
            static int (*real_close)(int);
            if (!real_close) real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
            int result = real_close(fd);
            /* A child between fork and exec closes what it does not need; only this process counts. */
            if (result < 0 && errno == EBADF && getpid() == loaded_in) {
                int saved = errno;
                const char *path = getenv("DIAG_TEST_CLOSE_LOG");
                int log = path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
                if (log >= 0) {
                    void *frames[32];
                    int count = backtrace(frames, 32);
                    dprintf(log, "close(%d) of a descriptor that was not open, in pid %d:\n", fd, getpid());
                    backtrace_symbols_fd(frames, count, log);
                    real_close(log);
                }
                errno = saved;
            }
            return result;
        }
        """#

    /// Builds the shim with the C compiler that comes with the Swift toolchain.
    static func buildShim(in folder: TemporaryDirectory) throws -> String {
        let source = folder.file("close-shim.c")
        try shimSource.write(to: source, atomically: true, encoding: .utf8)
        let shim = folder.file("close-shim.so").path
        let built = try run(try compiler(), ["-shared", "-fPIC", "-O1", "-o", shim, source.path, "-ldl"])
        #expect(built.status == 0, "\(built.stderr)")
        return shim
    }

    /// The C compiler that comes with the Swift toolchain (clang), else the system's.
    static func compiler() throws -> String {
        let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/bin", "/opt/swift/usr/bin"]
        let compilers = ["clang", "cc", "gcc"].flatMap { name in searchPath.map { "\($0)/\(name)" } }
        return try #require(compilers.first { FileManager.default.isExecutableFile(atPath: $0) },
                            "no C compiler (clang, cc or gcc) on PATH; the Swift toolchain brings clang")
    }

    /// Runs `executable` with the shim preloaded; returns its output and what the shim wrote down.
    static func runWatched(_ executable: String, _ arguments: [String], shim: String, log: URL,
                           environment: [String: String] = [:]) throws -> (ProcessOutput, String) {
        try? FileManager.default.removeItem(at: log)
        var env = environment
        env["LD_PRELOAD"] = shim
        env["DIAG_TEST_CLOSE_LOG"] = log.path
        let output = try run(executable, arguments, environment: env)
        let report = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return (output, report)
    }

    @Test func theShimSeesADoubleClose() throws {
        // The watcher itself must work, or the tests below could not fail.
        let folder = try TemporaryDirectory()
        let shim = try Self.buildShim(in: folder)
        let log = folder.file("close.log")
        let probe = folder.file("probe.c")
        try "#include <unistd.h>\nint main(void) { int fd = dup(1); close(fd); close(fd); return 0; }\n"
            .write(to: probe, atomically: true, encoding: .utf8)
        #expect(try run(try Self.compiler(), ["-o", folder.file("probe").path, probe.path]).status == 0)
        let (probed, probeReport) = try Self.runWatched(folder.file("probe").path, [], shim: shim, log: log)
        #expect(probed.status == 0)
        #expect(probeReport.contains("of a descriptor that was not open"), "\(probeReport)")
    }

    /// Runs a failure path under the watcher: it must fail saying `message`, and close no
    /// descriptor that was not open.
    static func expectRefusalClosingEachDescriptorOnce(_ product: String, _ arguments: [String], saying message: String,
                                                       in folder: TemporaryDirectory) throws {
        let shim = try buildShim(in: folder)
        let (output, report) = try runWatched(BuiltProducts.path(product), arguments, shim: shim, log: folder.file("close.log"))
        #expect(output.status != 0)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(report.isEmpty, "\(report)")
    }

    @Test func aClientThatCannotConnectClosesItsSocketOnce() throws {
        let folder = try TemporaryDirectory()
        try Self.expectRefusalClosingEachDescriptorOnce(
            "diag", ["stream", "--socket", folder.file("nobody-listens.sock").path], saying: "cannot connect to diagd", in: folder)
    }

    @Test func aDaemonRefusedTheStoreLockClosesItOnce() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        // This process holds the lock another diagd would hold.
        let holder = open(store.appendingPathComponent("diagd.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #expect(holder >= 0)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)
        try Self.expectRefusalClosingEachDescriptorOnce(
            "diagd", ["--store", store.path, "--socket", folder.file("d.sock").path], saying: "already running on the store", in: folder)
    }

    @Test func aDaemonThatCannotBindClosesItsSocketOnce() throws {
        let folder = try TemporaryDirectory()
        // Nothing may create a file in /sys, root included.
        try Self.expectRefusalClosingEachDescriptorOnce(
            "diagd", ["--store", folder.file("store").path, "--socket", "/sys/diagd-test.sock"], saying: "cannot bind the socket", in: folder)
    }
}
