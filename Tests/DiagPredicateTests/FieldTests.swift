import DiagModel
import Testing

@testable import DiagPredicate

@Suite("Keys, aliases, symbolic values and timestamps (PREDICATES.md §9)")
struct FieldTests {
    @Test func messageAliases() {
        let r = record("push token received")
        #expect(matches(#"eventMessage CONTAINS "token""#, r))
        #expect(matches(#"message CONTAINS "token""#, r))
        #expect(matches(#"composedMessage CONTAINS "token""#, r))
    }

    @Test func identifierAliases() {
        let r = record(processID: 77, threadID: 9)
        #expect(matches("processID == 77 AND processIdentifier == 77", r))
        #expect(matches("threadID == 9 AND threadIdentifier == 9", r))
        #expect(matches("activityIdentifier == 77", r))
        #expect(matches("parentActivityIdentifier == nil", r))
        #expect(matches("traceID == nil AND traceIdentifier == nil", r))
        #expect(matches("signpostID == nil AND signpostIdentifier == nil", r))
        #expect(matches("userID == 501", r))
    }

    @Test func stringFields() {
        let r = record(process: "cloudd", sender: "CloudKit", subsystem: "com.apple.cloudkit", category: "op")
        #expect(matches(#"process == "cloudd" AND sender == "CloudKit""#, r))
        #expect(matches(#"subsystem == "com.apple.cloudkit" AND category == "op""#, r))
        #expect(matches(#"processImagePath ENDSWITH "/cloudd""#, r))
        #expect(matches(#"senderImagePath == nil AND formatString == "%s" AND signpostName == nil"#, r))
    }

    @Test func keysWithoutRecordFieldsAreNil() {
        let r = record()
        for key in ["creatorActivityIdentifier", "transitionActivityIdentifier", "creatorProcessUniqueIdentifier",
                    "senderImageOffset", "machContinuousTimestamp", "continuousNanosecondsSinceBoot", "timeToLive",
                    "#size", "bootUUID", "processImageUUID", "senderImageUUID", "signpostScope"] {
            #expect(matches("\(key) == nil", r), "\(key)")
            #expect(matches("\(key) != 1", r), "\(key)")
        }
    }

    @Test func messageTypeSymbols() {
        let error = record(type: .error)
        #expect(matches("messageType == error", error))
        #expect(matches("messageType == Error", error))
        #expect(matches("messageType == ERROR", error))
        #expect(matches(#"messageType == "error""#, error))
        #expect(matches("messageType == 16", error))
        #expect(matches("logType == error", error))
        #expect(matches("messageType >= error", error))
        #expect(matches("messageType >= error", record(type: .fault)))
        #expect(!matches("messageType >= error", record(type: .debug)))
        #expect(matches("messageType > info", record(type: .debug)), "codes, not severity: debug 2 > info 1")
        #expect(matches("messageType IN {error, fault}", error))
        #expect(matches("messageType == default AND messageType == release", record(type: .default)))
        #expect(matches("messageType == 0 AND messageType == 0", record(type: .default)))
        #expect(matches("messageType == 1", record(type: .info)))
        #expect(matches("messageType == 2", record(type: .debug)))
        #expect(matches("messageType == 17", record(type: .fault)))
        #expect(!matches(#"messageType == "bogus""#, error), "a quoted non-name matches nothing")
        #expect(matches(#"messageType != "bogus""#, error))
    }

    @Test func eventTypeSymbols() {
        #expect(matches("eventType == logEvent", record()))
        #expect(matches("eventType == 1024", record()))
        #expect(matches("eventType == activityCreateEvent", record(eventType: .activityCreateEvent)))
        #expect(matches("eventType == 513", record(eventType: .activityCreateEvent)))
        #expect(matches("eventType == 514", record(eventType: .activityTransitionEvent)))
        #expect(matches("eventType == 768", record(eventType: .traceEvent)))
        #expect(matches("eventType == signpostEvent", record(eventType: .signpostEvent)))
        #expect(matches("eventType == LOSSEVENT", record(eventType: .lossEvent)))
    }

    @Test func typeIsReadByItsValue() {
        let error = record(type: .error, eventType: .logEvent)
        #expect(matches("type == error", error))
        #expect(matches("type == logEvent", error))
        #expect(matches("type >= info", error))
        #expect(matches("type == 1024", error), "a number after type compares eventType")
        #expect(!matches("type == 16", error))
        #expect(matches("type IN {fault, error}", error))
        #expect(matches("type IN {activityCreateEvent, error}", error))
    }

    @Test func symbolWinsOverKeyInSymbolicContext() {
        // signpostScope has no record field: nil, so equal to nothing; but 'process' is read as a symbol.
        #expect(!matches("signpostScope == process", record()))
        #expect(matches("signpostType == begin", record(signpostType: "begin")))
        #expect(matches("signpostType == end", record(signpostType: "intervalEnd")))
        #expect(!matches("signpostType == event", record(signpostType: "begin")))
    }

    @Test func timestampsCompareWithDateStrings() {
        let r = record(timestamp: wwdcStart + 30 * 1_000_000_000)
        #expect(matches(#"timestamp >= "2022-06-04 09:40:00" AND timestamp < "2022-06-04 09:42:00""#, r))
        #expect(matches(#"date > "2022-06-04""#, r), "date-only is midnight")
        #expect(matches(#"timestamp == "2022-06-04T09:40:30Z""#, r))
        #expect(matches(#"timestamp == "2022-06-04 11:40:30+0200""#, r), "offsets are honoured")
        #expect(matches(#"timestamp == "2022-06-04 04:40:30-05:00""#, r))
        #expect(matches(#"timestamp == "2022-06-04 09:40:30.000""#, r), "zone-less is UTC")
        #expect(matches(#"timestamp BETWEEN {"2022-06-04 09:40", "2022-06-04 09:41"}"#, r))
        #expect(!matches(#"timestamp > "yesterday""#, r), "an unparseable literal compares false")
        #expect(!matches(#"timestamp < "yesterday""#, r))
        #expect(!matches("timestamp > 5", r), "a date is not a number")
    }

    @Test func metadataKeys() {
        let r = record(metadata: ["storeIdentifier": "ABC", "count": 3, "ratio": 0.5, "nothing": nil, "object": ["a": 1]])
        #expect(matches(#"metadata.storeIdentifier == "ABC""#, r))
        #expect(matches("metadata.count == 3 AND metadata.count > 2", r))
        #expect(matches("metadata.ratio < 1", r))
        #expect(matches("metadata.missing == nil", r))
        #expect(matches("metadata.nothing == nil", r))
        #expect(!matches("metadata.object == nil", r))
        #expect(matches("metadata.anything == nil", record(metadata: nil)))
        #expect(matches(#"metadata.storeIdentifier BEGINSWITH[c] "ab""#, r))
    }
}
