import DiagProtocol
import Foundation
import TestSupport
import Glibc
import Testing

/// Reading diagd's reply lines from a real socket: whole lines across reads, and a bound on a
/// line so that a peer sending no newline cannot fill the reader's memory.
@Suite struct ReplyLineReaderTests {
    /// A connected pair of Unix stream sockets; `write` sends on one end and closes it.
    final class SocketPair {
        let reading: Int32
        let writing: Int32
        init() throws {
            var ends: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Spawning.closeOnExec(SOCK_STREAM), 0, &ends) == 0 else { throw ProtocolError("socketpair failed") }
            reading = ends[0]
            writing = ends[1]
        }
        /// Writes from a thread, so that a payload larger than the socket's buffer does not block the test.
        func writeAndClose(_ bytes: [UInt8]) -> Thread {
            let descriptor = writing
            let thread = Thread {
                var offset = 0
                while offset < bytes.count {
                    let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
                    guard count > 0 else { break }
                    offset += count
                }
                close(descriptor)
            }
            thread.start()
            return thread
        }
        deinit { close(reading) }
    }

    @Test func linesAreCutAtNewlinesAcrossReads() throws {
        let pair = try SocketPair()
        _ = pair.writeAndClose(Array("{\"end\":1}\n\n{\"synced\":2}\n".utf8))
        var reader = ReplyLineReader(descriptor: pair.reading, blockSize: 3)
        #expect(try reader.next() == Array("{\"end\":1}".utf8))
        #expect(try reader.next() == [])
        #expect(try reader.next() == Array("{\"synced\":2}".utf8))
        #expect(try reader.next() == nil)
    }

    @Test func aLineLongerThanTheBoundIsRefused() throws {
        let pair = try SocketPair()
        _ = pair.writeAndClose([UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20))
        var reader = ReplyLineReader(descriptor: pair.reading, maximumLength: 1000)
        let error = #expect(throws: ProtocolError.self) { try reader.next() }
        #expect(error?.description.contains("a line may be at most 1000 bytes") == true, "\(String(describing: error))")
    }

    @Test func aBoundedLineWithItsNewlineInTheSameReadIsRefusedToo() throws {
        let pair = try SocketPair()
        _ = pair.writeAndClose([UInt8](repeating: UInt8(ascii: "x"), count: 2000) + [UInt8(ascii: "\n")])
        var reader = ReplyLineReader(descriptor: pair.reading, maximumLength: 1000, blockSize: 4096)
        #expect(throws: ProtocolError.self) { try reader.next() }
    }

    @Test func aConnectionEndingInsideALineIsAnError() throws {
        let pair = try SocketPair()
        _ = pair.writeAndClose(Array("{\"end\":1}\n{\"end\"".utf8))
        var reader = ReplyLineReader(descriptor: pair.reading)
        #expect(try reader.next() == Array("{\"end\":1}".utf8))
        let error = #expect(throws: ProtocolError.self) { try reader.next() }
        #expect(error?.description.contains("ended inside a reply line") == true, "\(String(describing: error))")
    }
}
