import Foundation
import Testing
import TestSupport

/// `diag config` against a daemon that drops the connection is a runtime failure (issue 13,
/// item 11): exit 1, not 65.
struct ConfigDroppedConnectionTests {
    @Test func aDaemonThatHangsUpIsARuntimeFailure() throws {
        let folder = try TemporaryDirectory("diag-config-drop")
        let path = folder.file("d.sock").path
        let listener = socket(AF_UNIX, Spawning.closeOnExec(SOCK_STREAM), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(listen(listener, 4) == 0)
        // A "daemon" that reads the request and hangs up without a reply.
        let hangUp = Thread {
            let connection = Spawning.accept(listener)
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = read(connection, &buffer, buffer.count)
            close(connection)
        }
        hangUp.start()
        let result = try run(BuiltProducts.path("diag"), ["config", "--socket", path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("closed the connection"), "\(result.stderr)")
    }
}
