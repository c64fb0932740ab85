import DiagModel
import Testing

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
