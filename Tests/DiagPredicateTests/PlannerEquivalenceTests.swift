import DiagModel
import DiagStore
import Testing

@testable import DiagPredicate

/// SQL + residual must select exactly what Swift alone selects, on a real SQLite table with the
/// chunk schema of docs/ARCHITECTURE.md, over records full of nils, Unicode and metadata.
@Suite("Planner: SQL + residual ≡ Swift evaluation")
struct PlannerEquivalenceTests {
    static let predicates: [String] = [
        #"process == "apsd""#, #"process != "apsd""#, #"process <> nil"#, #"process == nil"#,
        #""apsd" == process"#, #"process > "apsd""#, #"process <= "cloudd""#, #""m" < process"#,
        #"process IN {"apsd", "dasd", nil}"#, #"process IN {"apsd", 3}"#, #"NOT (process IN {"apsd", "dasd"})"#,
        #"{"apsd", "cloudd"} CONTAINS process"#, #"process IN {}"#, #"process BETWEEN {"b", "d"}"#,
        #"process BEGINSWITH "Caf""#, #"process BEGINSWITH "cafe""#, #"process BEGINSWITH "a""#, #"process BEGINSWITH "\U0010FFFF""#,
        #"process ==[c] "APSD""#, #"process ==[n] "apsd""#, #"process ==[cd] "cafe""#, #"process CONTAINS "a""#,
        #"process == "a\000b""#, #"process == 5"#, #"process != 5"#, #"process < 5"#,
        "processID == 120", "processID != 120", "processID > 150 AND processID <= 250", "processID == nil",
        "processID IN {1, 2, 3, 120, 299}", "processID BETWEEN {100, 200}", "processID == 120.0", "processID < 10.5",
        #"processID == "120""#, #"processID != "120""#, "processID == TRUE", "100 < processID", "processID ==[c] 120",
        "messageType == error", "messageType >= error", "messageType IN {info, debug}", "messageType == 16",
        #"messageType == "fault""#, #"messageType == "nonsense""#, #"messageType != "nonsense""#, "logType < default",
        "type == error", "type == logEvent", "type == 1024", "type IN {fault, activityCreateEvent}", "type >= info",
        "eventType == activityCreateEvent", "eventType != logEvent", "eventType > 600",
        #"timestamp >= "2022-06-04 09:42:00" AND timestamp < "2022-06-04 09:44:00""#,
        #"timestamp > "2022-06-04 09:45:00Z""#, #"date <= "2022-06-04 09:41:00+0000""#,
        #"timestamp BETWEEN {"2022-06-04 09:41", "2022-06-04 09:43"}"#, #"timestamp == "2022-06-04 09:40:00""#,
        #"timestamp > "not a date""#, #"timestamp != "not a date""#, "timestamp > 5", #""2022-06-04 09:43" > timestamp"#,
        #"metadata.storeIdentifier == "ABC""#, #"metadata.storeIdentifier != "ABC""#, "metadata.count > 2",
        "metadata.count == nil", "metadata.count != nil", "metadata.ratio <= 0.5", "metadata.flag == 1", "metadata.flag == TRUE",
        #"metadata.tags == "a""#, #"metadata.tags CONTAINS "a""#, "metadata.obj == nil", #"metadata.storeIdentifier ==[c] "abc""#,
        "metadata.nothing == nil", #"metadata.count == "3""#, "metadata.storeIdentifier < 5",
        #"sender == "CoreData" OR sender == "CloudKit""#, #"sender == process"#, #"sender != process"#, "processID < threadID",
        #"subsystem == "" OR subsystem == nil"#, #"NOT subsystem == "com.apple.apsd""#,
        #"NOT (sender == "UIKit" OR processID > 200)"#, #"NOT (process CONTAINS "a")"#,
        #"message CONTAINS[cd] "icloud.com.example""#, #"message CONTAINS "Café""#, #"message CONTAINS[d] "cafe""#,
        #"message BEGINSWITH "push""#, #"message ENDSWITH "42""#, #"message LIKE "*error ?2*""#, #"message LIKE[c] "*CAFÉ*""#,
        #"message MATCHES ".*error [0-9]+.*""#, #"message MATCHES[c] "PUSH.*""#, #"message MATCHES[d] ".*cafe.*""#, #"message MATCHES[c] ".*kelvin.*""#,
        #"message MATCHES ".*(token|push).*""#, #"message MATCHES "[^x]*x\*y.*""#, #"message CONTAINS[c] "kelvin""#, #"message == "push""#, #""push" IN message"#,
        #"process == "apsd" AND message CONTAINS[cd] "CoreDataCloudKitDemo""#,
        #"message CONTAINS[cd] "CoreDataCloudKitDemo" AND process == "apsd""#,
        #"process == "apsd" OR message CONTAINS "push""#, #"(process == "apsd" OR process == "dasd") AND messageType == error"#,
        "#size == nil", "bootUUID != nil", "signpostScope == process", "signpostType == begin", #"signpostType != end"#,
        "TRUEPREDICATE", "FALSEPREDICATE", "NOT TRUEPREDICATE", "SELF != nil", "1 == 1", #""a" IN {"b"}"#,
        #"ANY process == "apsd""#, #"ALL processID > 100"#, #"NONE sender == "CoreData""#,
        #"process == "apsd" AND NOT (processID == nil) AND (messageType == error OR TRUEPREDICATE)"#,
        #"NOT (NOT (process == "apsd") AND processID > 10)"#, "NOT (processID > 100 OR FALSEPREDICATE)",
        #"activityIdentifier == 77 AND parentActivityIdentifier == nil AND traceID != 5"#,
        #"category IN[c] {"CONNECTION"}"#, #"formatString == "%s""#, #"processImagePath ENDSWITH "apsd""#,
    ]

    static let records = PlannerTestRecords.make(count: 1_500)

    @Test(arguments: predicates) func sqlPlusResidualEqualsSwift(text: String) throws {
        let predicate = try Predicate.parse(text)
        let plan = predicate.plan()
        let records = Self.records
        // A connection is used by one thread: each test opens its own.
        let database = try PlannerTestRecords.database(with: records)
        let expected = Set(records.filter { predicate.evaluate($0.value) }.keys)
        var selected = Set<Int64>()
        let statement = try database.prepare("SELECT id FROM records" + (plan.sqlWhere.map { " WHERE " + $0 } ?? ""))
        for (index, value) in plan.bindings.enumerated() { try statement.bind(value, at: Int32(index + 1)) }
        while try statement.step() { selected.insert(statement.int64(at: 0)) }
        let sqlOnly = selected
        if let residual = plan.residual { selected = selected.filter { residual.evaluate(records[$0]!) } }
        #expect(selected == expected, "\(text)\n\(plan.explanation.joined(separator: "\n"))")
        #expect(expected.isSubset(of: sqlOnly), "SQL must never drop a match")
        for id in expected {
            let record = records[id]!
            if let start = plan.timeRange.start { #expect(record.timestamp >= start, "\(text)") }
            if let end = plan.timeRange.end { #expect(record.timestamp < end, "\(text)") }
            let folded = TextFolding.fold(record.eventMessage, caseInsensitive: true, diacriticInsensitive: true)
            for needle in plan.messageSearch { #expect(folded.contains(needle), "\(text): \(needle)") }
        }
        #expect(!plan.bindings.contains(.null))
    }

    @Test func theRecordsExerciseBothOutcomes() throws {
        // Guards the generated data: common predicates must select some records but not all.
        let records = Self.records
        for text in [#"process == "apsd""#, "messageType == error", #"message CONTAINS[cd] "icloud""#, "metadata.count > 2", "processID == nil"] {
            let predicate = try Predicate.parse(text)
            let count = records.values.filter(predicate.evaluate).count
            #expect(count > 0 && count < records.count, "\(text): \(count)")
        }
    }
}
