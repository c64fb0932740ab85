@testable import DiagIngest
import DiagProtocol
import Foundation
import Glibc
import Testing
import TestSupport

/// diagd's socket file appears only once it accepts connections: a client that waits for the
/// file (a script's `[ -S … ]`, a test) must never be refused. Bound at the path itself, the file
/// existed between bind and listen; `RelativeSocketPathTests` was refused so in a CI run, and by
/// hand 3 of 150 diagd starts refused a connection made as soon as the file appeared.
@Suite struct ListeningSocketTests {
    /// A preloaded `listen` that waits 300 ms first: the window between bind and listen, a
    /// moment at most in a real start, made long enough that a client always falls into it
    /// where the file appears at bind.
    static let slowListenSource = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <sys/socket.h>
        #include <unistd.h>
        int listen(int fd, int backlog) {
            static int (*real_listen)(int, int);
            if (!real_listen) real_listen = (int (*)(int, int))dlsym(RTLD_NEXT, "listen");
            usleep(300000);
            return real_listen(fd, backlog);
        }
        """#

    @Test func theFileAppearsOnlyOnceTheSocketListens() throws {
        let folder = try TemporaryDirectory("listening-socket")
        let source = folder.file("slow-listen.c")
        try Self.slowListenSource.write(to: source, atomically: true, encoding: .utf8)
        let shim = folder.file("slow-listen.so").path
        let built = try run(try DescriptorHygieneTests.compiler(), ["-shared", "-fPIC", "-O1", "-o", shim, source.path, "-ldl"])
        try #require(built.status == 0, "\(built.stderr)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("diagd"))
        process.arguments = ["--store", "store", "--socket", "d.sock"]
        process.currentDirectoryURL = folder.url
        process.environment = ProcessInfo.processInfo.environment.merging(["LD_PRELOAD": shim]) { $1 }
        process.standardError = FileHandle.nullDevice
        try process.spawn()
        defer { kill(process.processIdentifier, SIGTERM); _ = process.waitForExit(seconds: 600) }
        let path = folder.file("d.sock").path
        let deadline = Date().addingTimeInterval(20)
        while access(path, F_OK) != 0, process.isRunning, Date() < deadline { usleep(1_000) }
        try #require(process.isRunning, "diagd exited with status \(process.terminationStatus)")
        // At once, as a script that waits for the file does.
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let address = try UnixSocketAddress(path: path)
        let connected = address.withSockaddr { connect(client, $0, $1) }
        let code = errno
        #expect(connected == 0, "connect: \(String(cString: strerror(code)))")
        // The staging name is gone.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(left.allSatisfy { !$0.hasSuffix(".binding") }, "\(left)")
    }

    @Test func theStagingNameLiesBesideThePathAndFitsAnAddress() {
        let pid = getpid()
        #expect(ListeningSocket.stagingPath(for: "d.sock") == ".d.sock.\(pid).binding")
        #expect(ListeningSocket.stagingPath(for: "/run/diagd/diagd.sock") == "/run/diagd/.diagd.sock.\(pid).binding")
        #expect(ListeningSocket.stagingPath(for: "@diagd") == nil)
        // A path that fits an address but leaves no room for the staging name is bound directly.
        let long = "/tmp/" + String(repeating: "x", count: 100)
        #expect(ListeningSocket.stagingPath(for: long) == nil)
    }
}
