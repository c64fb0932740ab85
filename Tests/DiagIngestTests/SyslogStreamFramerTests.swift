@testable import DiagIngest
import Foundation
import Testing

/// `SyslogStreamFramer`: the same messages whichever way the stream is cut into reads.
@Suite struct SyslogStreamFramerTests {
    /// LF-framed and octet-counted frames (RFC 6587), with line ends between them.
    static let stream = Array((
        "<13>1 - h a - - - first\n"
        + "\r\n\n"
        + counted("<13>1 - h a - - - second")
        + "<13>1 - h a - - - third with \\n inside\n"
        + counted("<13>one")
        + "\n\n<13>1 - h a - - - last\n"
    ).utf8)

    static func counted(_ message: String) -> String { "\(message.utf8.count) \(message)" }
    static let messages = ["<13>1 - h a - - - first", "<13>1 - h a - - - second", "<13>1 - h a - - - third with \\n inside", "<13>one", "<13>1 - h a - - - last"]

    static func frames(_ reads: [ArraySlice<UInt8>], maximumLength: Int = 64 << 10) -> (messages: [String], failure: String?, partial: Bool) {
        var framer = SyslogStreamFramer(maximumLength: maximumLength)
        var messages: [String] = []
        for read in reads {
            let failure = Array(read).withUnsafeBytes { bytes in
                framer.feed(bytes) { messages.append(String(decoding: $0, as: UTF8.self)) }
            }
            if let failure { return (messages, failure, framer.hasPartialFrame) }
        }
        return (messages, nil, framer.hasPartialFrame)
    }

    @Test func oneReadAndEveryCutGiveTheSameMessages() {
        #expect(Self.frames([Self.stream[...]]).messages == Self.messages)
        for cut in 0...Self.stream.count {
            let result = Self.frames([Self.stream[..<cut], Self.stream[cut...]])
            #expect(result.messages == Self.messages, "cut at \(cut)")
            #expect(result.failure == nil)
            #expect(!result.partial)
        }
        // Byte by byte.
        let bytes = Self.frames(Self.stream.indices.map { Self.stream[$0...$0] })
        #expect(bytes.messages == Self.messages)
    }

    @Test func aPartialFrameWaitsForTheRest() {
        let half = Self.frames([Array("<13>1 - h a - - - first\n<13>1 - h a".utf8)[...]])
        #expect(half.messages == ["<13>1 - h a - - - first"])
        #expect(half.partial)
        let counted = Self.frames([Array("30 <13>1 - h".utf8)[...]])
        #expect(counted.messages.isEmpty)
        #expect(counted.partial)
    }

    @Test func framesOverTheLimitEndTheStream() {
        let counted = Self.frames([Array("<13>ok\n99999 <13>".utf8)[...]], maximumLength: 100)
        #expect(counted.messages == ["<13>ok"])
        #expect(counted.failure?.contains("announces more than 100 bytes") == true)
        let long = Array(repeating: UInt8(ascii: "x"), count: 150)
        for reads in [[long[...]], [long[..<60], long[60...]]] {
            let result = Self.frames(reads, maximumLength: 100)
            #expect(result.failure?.contains("longer than 100 bytes") == true)
        }
        let noSpace = Self.frames([Array("12x".utf8)[...]])
        #expect(noSpace.failure?.contains("expected a space after MSG-LEN 12") == true)
    }
}
