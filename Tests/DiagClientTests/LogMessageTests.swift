import DiagClient
import Testing

@Suite struct LogMessageTests {
    @Test func dynamicValuesArePrivateUnlessMarkedPublic() {
        let path = "/Users/alice/Secret.sqlite"
        let count = 42
        let message: LogMessage = "exported \(count, privacy: .public) items to \(path)"
        #expect(message.message == "exported 42 items to <private>")
        #expect(message.formatString == "exported %{public}@ items to %{private}@")
    }

    @Test func hashedValuesMatchAcrossRecordsWithoutShowingTheValue() {
        let first: LogMessage = "user \("alice", privacy: .privateHashed)"
        let second: LogMessage = "user \("alice", privacy: .privateHashed)"
        let other: LogMessage = "user \("bob", privacy: .privateHashed)"
        #expect(first.message == second.message)
        #expect(first.message != other.message)
        #expect(!first.message.contains("alice"))
        #expect(first.formatString == "user %{private, mask.hash}@")
    }

    @Test func literalPercentSignsAreEscapedInTheFormatOnly() {
        let message: LogMessage = "100% done for \("x", privacy: .public)"
        #expect(message.message == "100% done for x")
        #expect(message.formatString == "100%% done for %{public}@")
        let literal: LogMessage = "50% there"
        #expect(literal.message == "50% there")
        #expect(literal.formatString == "50%% there")
    }

    @Test func aMessageWithoutValuesIsItsOwnFormat() {
        let message: LogMessage = "sync started"
        #expect(message.message == "sync started")
        #expect(message.formatString == "sync started")
    }
}
