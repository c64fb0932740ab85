import Foundation
import Testing
@testable import DiagForward

/// How much a TCP forward keeps for sending again: at least what a stalled receiver's kernel may
/// have acknowledged without the receiver reading it.
@Suite struct ReplayBudgetTests {
    @Test func theMaximumIsTheThirdNumberOfTheSetting() {
        #expect(TCPReceiveBufferLimit.maximum(ofSetting: "4096\t131072\t33554432\n") == 33_554_432)
        #expect(TCPReceiveBufferLimit.maximum(ofSetting: "4096 87380 6291456") == 6_291_456)
        #expect(TCPReceiveBufferLimit.maximum(ofSetting: "4096  131072 33554432") == 33_554_432, "any run of blanks")
    }

    @Test(arguments: [nil, "", "\n", "4096 131072", "4096 131072 33554432 1", "4096 x 33554432", "4096 131072 -1",
                      "4096 131072 99999999999999999999999", "\u{0}\u{1} 2 3"])
    func settingsThatAreNotThreeNumbersGiveNothing(text: String?) {
        #expect(TCPReceiveBufferLimit.maximum(ofSetting: text) == nil)
    }

    @Test func theBudgetCoversTheReceiveBufferBetween8And64MiB() {
        #expect(RFC5424TCPSink.replayBytes(receiveBufferLimit: nil) == 8 << 20)
        #expect(RFC5424TCPSink.replayBytes(receiveBufferLimit: 6_291_456) == 8 << 20)
        #expect(RFC5424TCPSink.replayBytes(receiveBufferLimit: 33_554_432) == 33_554_432)
        #expect(RFC5424TCPSink.replayBytes(receiveBufferLimit: 1 << 30) == 64 << 20)
    }

    @Test func theDefaultCoversThisMachinesReceiveBuffers() throws {
        let setting = try String(contentsOfFile: "/proc/sys/net/ipv4/tcp_rmem", encoding: .utf8)
        let limit = try #require(TCPReceiveBufferLimit.maximum(ofSetting: setting))
        #expect(RFC5424TCPSink.defaultReplayBytes >= min(limit, 64 << 20))
    }
}
