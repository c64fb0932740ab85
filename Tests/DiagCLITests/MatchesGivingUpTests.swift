import Foundation
import Testing
import TestSupport

/// `MATCHES` never answers "no" for a record it could not decide (issue 13, item 5), through
/// the built `diag` on a plain file.
@Suite struct MatchesGivingUpTests {
    private static func file(_ messages: [String]) throws -> (TemporaryDirectory, String) {
        let folder = try TemporaryDirectory("diag-matches")
        let lines = messages.enumerated().map { index, message in
            let object: [String: Any] = ["timestamp": "2026-11-29 10:40:0\(index).000000+0000", "eventMessage": message, "messageType": "Default"]
            return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        return (folder, try folder.write("m.ndjson", lines.joined(separator: "\n") + "\n"))
    }

    /// ICU gives up on this one after 25 a's and answered "no match"; the linear engine matches.
    @Test func theIssuePatternPrintsItsRecord() throws {
        let subject = String(repeating: "a", count: 25) + "b"
        let (folder, path) = try Self.file([subject, "aaac"])
        _ = folder
        let output = try diag(["show", "--style", "compact", "--predicate", #"eventMessage MATCHES "(a+)+$|a+b""#, path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains(subject))
        #expect(!output.stdout.contains("aaac"))
        #expect(output.stderr.isEmpty)
    }

    /// A backreference keeps the pattern on ICU, which gives up on the second record: the first
    /// is shown, the second is named as undecided on stderr, and the exit status is 65.
    @Test func iCUGivingUpExits65WithThePatternAndTheCount() throws {
        let long = String(repeating: "a", count: 40)
        let (folder, path) = try Self.file(["aab", long, "xyz"])
        _ = folder
        let output = try diag(["show", "--style", "compact", "--predicate", #"eventMessage MATCHES "(a*)*\\1b""#, path])
        #expect(output.status == 65)
        #expect(output.stdout.contains("aab"))
        #expect(!output.stdout.contains(long))
        #expect(output.stderr.contains(#"MATCHES "(a*)*\1b""#), "\(output.stderr)")
        #expect(output.stderr.contains("on 1 record"))
        #expect(output.stderr.contains("U_REGEX_TIME_OUT") || output.stderr.contains("U_REGEX_STACK_OVERFLOW"))
    }
}
