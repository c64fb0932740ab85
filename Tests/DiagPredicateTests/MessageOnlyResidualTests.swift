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
}
