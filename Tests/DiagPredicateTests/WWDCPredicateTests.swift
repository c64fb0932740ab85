import DiagModel
import Testing
import TestSupport

@testable import DiagPredicate

@Suite("WWDC22 session 10119 predicates (PREDICATES.md §11)")
struct WWDCPredicateTests {
    static let demo = PredicateCases.WWDC.demo
    static let cloudd = PredicateCases.WWDC.cloudd
    static let apsd = PredicateCases.WWDC.apsd
    static let dasd = PredicateCases.WWDC.dasd
    static let combined = PredicateCases.WWDC.combined

    let demoRecord = record("Exporting changes", process: "CoreDataCloudKitDemo", sender: "CoreData")
    let clouddRecord = record("Fetched zone for ICLOUD.com.example.cloudkitcoredatademo", process: "cloudd", sender: "CloudKit")
    let apsdRecord = record("Received push for coredatacloudkitdemo topic", process: "apsd")
    let dasdRecord = record(
        "Submitted: com.apple.CoreData.CloudKit.activity.export.CEF8F02F-81DC-48E6-B293-6FCD357EF80F",
        process: "dasd")
    let unrelated = record("Received push for coredatacloudkitdemo topic", process: "dasd")

    @Test func eachPredicateMatchesItsComponent() {
        #expect(matches(Self.demo, demoRecord))
        #expect(!matches(Self.demo, record("x", process: "CoreDataCloudKitDemo", sender: "UIKit")))
        #expect(matches(Self.cloudd, clouddRecord))
        #expect(matches(Self.apsd, apsdRecord))
        #expect(matches(Self.dasd, dasdRecord))
        #expect(!matches(Self.dasd, record("com.apple.coredata.cloudkit.activity only", process: "dasd")))
    }

    @Test func theFourWayOrMatchesEveryComponentAndNothingElse() {
        for r in [demoRecord, clouddRecord, apsdRecord, dasdRecord] {
            #expect(matches(Self.combined, r), "\(r.process ?? "")")
        }
        #expect(!matches(Self.combined, unrelated))
        #expect(!matches(Self.combined, record("Exporting changes", process: "CoreDataCloudKitDemo", sender: nil)))
    }

    @Test func withTheSessionsTimeWindow() {
        let window = #" AND timestamp >= "2022-06-04 09:40:00" AND timestamp <= "2022-06-04 09:42:00""#
        let inside = record(apsdRecord.eventMessage, process: "apsd", timestamp: wwdcStart + 60_000_000_000)
        let outside = record(apsdRecord.eventMessage, process: "apsd", timestamp: wwdcStart + 121_000_000_000)
        #expect(matches("(" + Self.combined + ")" + window, inside))
        #expect(!matches("(" + Self.combined + ")" + window, outside))
    }

    @Test func normalisedForm() throws {
        let predicate = try Predicate.parse(Self.demo)
        #expect(predicate.description == #"process == "CoreDataCloudKitDemo" AND (sender == "CoreData" OR sender == "CloudKit")"#)
        let dasd = try Predicate.parse(Self.dasd)
        #expect(dasd.description == #"process == "dasd" AND message CONTAINS[cd] "com.apple.coredata.cloudkit.activity" AND message CONTAINS[cd] "CEF8F02F-81DC-48E6-B293-6FCD357EF80F""#)
    }
}

@Suite("Normalised description (diag predicate check)")
struct DescriptionTests {
    static let samples = [
        #"process = 'apsd' and not (sender == "x" || sender == nil)"#,
        #"NOT NOT processID > -5"#,
        #"message like[CD] "a\*b?" AND message MATCHES "\\d+\n""#,
        #"ANY processID IN {1, 0x10, 2.5, TRUE, NO, nil} or some sender between {"a", 'z'}"#,
        #"messageType >= ERROR AND type == logEvent AND eventType == 1024 AND logType == "fault""#,
        #"timestamp >= "2022-06-04 09:40:00" AND date < "2022-06-05""#,
        #"#size == nil AND metadata.storeIdentifier ==[n] "x" AND metadata.#first != 1"#,
        #"SELF != NULL AND TRUEPREDICATE AND NOT FALSEPREDICATE"#,
        "message == \"tab\\tquote\\\"backslash\\\\ nul\\000 bell\\x07\"",
        #"(a_1 == 1 OR processID == 2) AND (processID == 3 OR (processID == 4 AND processID == 5))"#,
        #"NONE subsystem CONTAINS[c] "apple" AND ALL category ENDSWITH "x""#,
    ]

    @Test(arguments: samples) func descriptionParsesToItself(text: String) throws {
        guard let predicate = try? Predicate.parse(text) else {
            #expect(parseError(text)?.kind == .unknownField, "only a_1 is meant to be unknown")
            return
        }
        let again = try Predicate.parse(predicate.description)
        #expect(again.description == predicate.description)
        for r in [record(), record("a*b1", process: nil, processID: 16, sender: "m"), record(type: .fault)] {
            #expect(again.evaluate(r) == predicate.evaluate(r))
        }
    }

    @Test func canonicalSpelling() throws {
        #expect(try Predicate.parse(#"process = 'apsd' && processID => 1 || !(sender <> "x")"#).description
            == #"process == "apsd" AND processID >= 1 OR NOT sender != "x""#)
        #expect(try Predicate.parse("messageType == ERROR").description == "messageType == error")
        #expect(try Predicate.parse("processID =< 0x10").description == "processID <= 16")
        #expect(try Predicate.parse("process ==[DC] $P", variables: ["P": "a\"b"]).description == #"process ==[cd] "a\"b""#)
        #expect(try Predicate.parse("(process == 'a' OR process == 'b') AND (sender == 'c')").description
            == #"(process == "a" OR process == "b") AND sender == "c""#)
    }
}
