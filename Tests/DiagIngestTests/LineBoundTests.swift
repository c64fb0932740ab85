import DiagModel
import DiagProtocol
import Testing
import TestSupport

/// `LineBounds.request` on diagd's real socket: a record line of exactly the bound is stored, one
/// byte more is refused with the error docs/PROTOCOL.md quotes, and the connection goes on.
@Suite(.serialized) struct LineBoundTests {
    /// A record line of `length` bytes before its newline.
    static func recordLine(_ label: String, length: Int) -> [UInt8] {
        let head = Array("{\"eventMessage\":\"\(label) ".utf8)
        let tail = Array("\"}".utf8)
        return head + [UInt8](repeating: UInt8(ascii: "x"), count: length - head.count - tail.count) + tail + [UInt8(ascii: "\n")]
    }

    @Test func aLineOneByteOverTheRequestBoundGetsTheDocumentedError() throws {
        let session = try RawDaemonSession()
        let client = session.client
        client.write(Self.recordLine("at", length: LineBounds.request))
        client.write(Self.recordLine("over", length: LineBounds.request + 1))
        client.write("{\"sync\":1}\n")
        let replies = try #require(client.waitForSync(1))
        #expect(replies.count == 1)
        #expect(replies.first?["line"]?.int64Value == 2)
        #expect(replies.first?["error"]?.stringValue == "line is 1048577 bytes; a line may be at most 1048576 bytes (1 MiB)")
        try session.finish()
        let stored = try session.daemon.clientRecords()
        #expect(stored.count == 1)
        #expect(stored.first?.eventMessage.hasPrefix("at ") == true)
        #expect(stored.first?.eventMessage.utf8.count == LineBounds.request - "{\"eventMessage\":\"\"}".utf8.count)
    }

}
