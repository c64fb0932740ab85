import DiagModel
import Testing
import TestSupport

@testable import DiagPredicate

/// A residual that reads only the message is decided from the message alone, before a store
/// decodes the record: it must give the answer of the whole record.
@Suite struct MessageOnlyResidualTests {
    static let messageOnly = [
        #"message MATCHES ".*\\d{2}.*""#, "eventMessage CONTAINS[cd] 'café'", "composedMessage LIKE '*push*'",
        "NOT (message BEGINSWITH 'error') OR message ENDSWITH[c] 'DEMO'", "message IN {'push', 'ß'}",
        "message == 'push' AND TRUEPREDICATE", "message MATCHES[c] 'CAF.*' OR message CONTAINS 'x*y'",
        "#size == 3 OR message CONTAINS 'push'", "ANY message == 'push'",
    ]
    static let readsOthers = [
        "process == 'apsd'", "message CONTAINS 'push' AND process == 'apsd'", "metadata.count == 2 OR message == 'a'",
        "SELF == nil", "message == sender", "messageType == error", "timestamp > '2022-06-01'",
    ]

    @Test func tellsWhichPredicatesReadOnlyTheMessage() throws {
        for text in Self.messageOnly {
            #expect(try Predicate.parse(text).readsOnlyMessage, "\(text)")
        }
        for text in Self.readsOthers {
            #expect(try !Predicate.parse(text).readsOnlyMessage, "\(text)")
        }
    }

    @Test func theMessageAloneGivesTheRecordsAnswer() throws {
        let records = PlannerTestRecords.make(count: 400).values
        var matched = 0
        for text in Self.messageOnly {
            let predicate = try Predicate.parse(text)
            for record in records {
                let whole = predicate.evaluate(record)
                #expect(predicate.evaluate(message: record.eventMessage) == whole, "\(text) on \(record.eventMessage.debugDescription)")
                if whole { matched += 1 }
            }
        }
        #expect(matched > 100, "the predicates match some records, not none")
    }

    /// String operators on messages mixing ASCII with characters that fold into ASCII, marks
    /// that end no match (`\u{301}`, `\u{20DD}`), `…`, NUL and bytes that are not UTF-8: the
    /// answer on the bytes (found in place when it can be) is the one of folding the message.
    @Test func stringOperatorsOnMixedMessagesAgreeWithFoldingTheMessage() throws {
        var random = SeededPicker(state: 11)
        let pieces: [[UInt8]] = ["a", "b", "K", "k", "s", " ", "fi", "ﬁ", "\u{212A}", "ß", "É", "e\u{301}", "\u{301}",
                                 "\u{20DD}", "…", "\u{0}", "日"].map { Array($0.utf8) } + [[0xFF], [0xC3]]
        let predicates = try ["message CONTAINS 'ab'", "message CONTAINS[c] 'kb'", "message CONTAINS[d] 'e'", "message CONTAINS[cd] 'fi'",
                              "message CONTAINS[cd] 'SS'", "message CONTAINS[cd] 'a b'", "message CONTAINS[c] 'é'", "message CONTAINS '…'",
                              "message BEGINSWITH[c] 'k'", "message ENDSWITH[cd] 'e'", "message == 'ab'", "message CONTAINS[cd] 'ﬁk'"]
            .map { try Predicate.parse($0) }
        var matched = 0
        for _ in 0..<6_000 {
            let bytes = (0..<random.int(10)).flatMap { _ in random.pick(pieces) }
            let predicate = random.pick(predicates)
            guard case .comparison(let comparison) = predicate.executionNode, let (_, needle) = comparison.stringNeedle else {
                Issue.record("not a string comparison: \(predicate)")
                return
            }
            let text = String(decoding: bytes, as: UTF8.self), folded = comparison.folding.apply(text)
            let expected = switch comparison.op {
            case .contains: StringSearch.contains(folded, needle)
            case .beginsWith: StringSearch.hasPrefix(folded, needle)
            case .endsWith: StringSearch.hasSuffix(folded, needle)
            default: StringSearch.equal(folded, needle)
            }
            if expected { matched += 1 }
            #expect(bytes.withUnsafeBufferPointer { predicate.evaluate(messageUTF8: $0) } == expected, "\(predicate) on \(bytes)")
            #expect(predicate.evaluate(message: text) == expected, "\(predicate) on \(text.debugDescription)")
        }
        #expect(matched > 600 && matched < 5_400, "both answers are tried: \(matched) matched")
    }

    @Test func theMessageBytesGiveTheMessagesAnswer() throws {
        let predicates = Self.messageOnly + [
            #"message MATCHES ".*\\d{2}.*""#, #"message MATCHES[c] "[a-z]+ \\d+""#, #"message MATCHES[d] "cafe.*""#,
            #"message MATCHES "(push|error) .*""#, #"message MATCHES "[^x]*""#,
        ]
        let messages: [[UInt8]] = PlannerTestRecords.make(count: 300).values.map { Array($0.eventMessage.utf8) } + [
            Array("error 42".utf8), Array("PUSH 7".utf8), Array("café au lait".utf8), [], [0x41, 0x80, 0x34, 0x32], [0xFF, 0x39, 0x39],
            Array("x\r\n12".utf8), [0x65, 0x72, 0x72, 0x00, 0x34, 0x32],
        ]
        for text in predicates {
            let predicate = try Predicate.parse(text)
            for bytes in messages {
                let expected = predicate.evaluate(message: String(decoding: bytes, as: UTF8.self))
                let answer = bytes.withUnsafeBufferPointer { predicate.evaluate(messageUTF8: $0) }
                #expect(answer == expected, "\(text) on \(bytes)")
            }
        }
    }
}
