import DiagModel
import Testing

@testable import DiagPredicate

@Suite("Planner: what goes to SQL, what stays in Swift")
struct PlannerTests {
    private func plan(_ text: String) throws -> QueryPlan { try Predicate.parse(text).plan() }

    @Test func exactEqualityGoesToSQLAlone() throws {
        let plan = try plan(#"process == "apsd" AND messageType >= error"#)
        #expect(plan.sqlWhere == "(process = ?) AND (messageType >= ?)")
        #expect(plan.bindings == [.text("apsd"), .int(16)])
        #expect(plan.residual == nil)
        #expect(plan.explanation.contains { $0.contains("records_process(process, timestamp)") })
        #expect(plan.explanation.contains("per record (Swift): nothing; SQL decides exactly"))
    }

    @Test func userTextIsNeverPastedIntoSQL() throws {
        let hostile = #"'); DROP TABLE records; --"#
        let plan = try plan("process == \"\(hostile)\" OR metadata.key == \"\(hostile)\"")
        #expect(plan.sqlWhere?.contains("DROP") == false)
        #expect(plan.bindings.contains(.text(hostile)))
    }

    @Test func missingFieldSemanticsInSQL() throws {
        #expect(try plan(#"subsystem != "x""#).sqlWhere == "subsystem IS NOT ?")
        #expect(try plan("subsystem == nil").sqlWhere == "subsystem IS NULL")
        #expect(try plan(#"NOT (subsystem == "x")"#).sqlWhere == "NOT coalesce(subsystem = ?, 0)")
    }

    @Test func optionsAndStringOperatorsStayInSwiftWithASearchPrefilter() throws {
        let plan = try plan(#"process == "apsd" AND message CONTAINS[cd] "CoreDataCloudKitDemo""#)
        #expect(plan.sqlWhere == "process = ?")
        #expect(plan.residual?.description == #"message CONTAINS[cd] "CoreDataCloudKitDemo""#)
        #expect(plan.messageSearch == ["coredatacloudkitdemo"])
    }

    @Test func conjunctOrderDoesNotMatter() throws {
        let one = try plan(#"message CONTAINS[cd] "Café" AND process == "apsd""#)
        let two = try plan(#"process == "apsd" AND message CONTAINS[cd] "Café""#)
        #expect(one.sqlWhere == two.sqlWhere)
        #expect(one.bindings == two.bindings)
        #expect(one.messageSearch == ["cafe"])
        #expect(two.messageSearch == ["cafe"])
        let residual = try Predicate.parse(#"message MATCHES ".*x.*" AND processID == 5 AND message CONTAINS "y""#)
        guard case .and(let ordered) = residual.executionNode, case .comparison(let first) = ordered[0] else {
            Issue.record("expected an AND")
            return
        }
        #expect(first.left.field == .processID, "cheap conjuncts run first")
    }

    @Test func searchNeedlesOnlyFromNecessaryPositions() throws {
        #expect(try plan(#"message CONTAINS "push" OR process == "x""#).messageSearch.isEmpty)
        #expect(try plan(#"NOT message CONTAINS "push""#).messageSearch.isEmpty)
        #expect(try plan(#"message CONTAINS "ab""#).messageSearch.isEmpty, "needles under 3 characters filter nothing")
        #expect(try plan(#"message LIKE[c] "*Error ?? in *Straße*""#).messageSearch == ["error ", " in ", "strasse"])
        #expect(try plan(#"message BEGINSWITH "Push" AND (message ENDSWITH "done" AND "token" IN message)"#).messageSearch
            == ["push", "done", "token"])
        #expect(try plan(#"message MATCHES ".*Push (to|from) .*\.sync [0-9]+""#).messageSearch == ["push ", ".sync "])
        #expect(try plan(#"message MATCHES "push|pull""#).messageSearch.isEmpty)
        #expect(try plan(#"message CONTAINS[d] "push""#).messageSearch.isEmpty, "[d] alone: U+0345 folds to a letter under [c]")
        #expect(try plan(#"message CONTAINS[dn] "push""#).messageSearch == ["push"])
    }

    @Test func timeWindowFromConjuncts() throws {
        let plan = try plan(#"timestamp >= "2022-06-04 09:40:00" AND date < "2022-06-04 09:42:00" AND process == "apsd""#)
        #expect(plan.timeRange == TimeRange(start: wwdcStart, end: wwdcStart + 120_000_000_000))
        #expect(plan.explanation.contains { $0.hasPrefix("time window: from 2022-06-04 09:40:00.000000+0000") })
        let between = try self.plan(#"timestamp BETWEEN {"2022-06-04 09:40", "2022-06-04 09:41"}"#)
        #expect(between.timeRange == TimeRange(start: wwdcStart, end: wwdcStart + 60_000_000_001))
        #expect(try self.plan(#"timestamp > "bad""#).timeRange.isEmpty)
        #expect(try self.plan(#"timestamp > "2022-06-04" OR process == "x""#).timeRange.isUnbounded)
        #expect(try self.plan(#""2022-06-04 09:40" <= timestamp"#).timeRange.start == wwdcStart)
    }

    @Test func beginsWithIsARangeCheckedAgain() throws {
        let plan = try plan(#"process BEGINSWITH "ap""#)
        #expect(plan.sqlWhere == "process >= ? AND process < ?")
        #expect(plan.bindings == [.text("ap"), .text("aq")])
        #expect(plan.residual != nil, "the combining-mark boundary is checked in Swift")
    }

    @Test func inListsAndTypeByValue() throws {
        #expect(try plan(#"process IN {"a", "b", nil}"#).sqlWhere == "(process = ?) OR (process = ?) OR (process IS NULL)")
        #expect(try plan(#"process IN {"a", "b"}"#).sqlWhere == "process IN (?, ?)")
        let type = try plan("type IN {error, logEvent}")
        #expect(type.sqlWhere == "(messageType = ?) OR (eventType = ?)")
        #expect(type.bindings == [.int(16), .int(1024)])
    }

    @Test func metadataThroughJSONFunctions() throws {
        let plan = try plan(#"metadata.storeIdentifier == "ABC""#)
        #expect(plan.sqlWhere == "json_type(metadata, ?) = 'text' AND json_extract(metadata, ?) = ?")
        #expect(plan.bindings == [.text("$.storeIdentifier"), .text("$.storeIdentifier"), .text("ABC")])
        #expect(plan.residual == nil)
    }

    @Test func constantsFold() throws {
        #expect(try plan("TRUEPREDICATE").sqlWhere == nil)
        #expect(try plan("FALSEPREDICATE").sqlWhere == "0")
        #expect(try plan(#"processID == "5""#).sqlWhere == "0", "a type mismatch is false, not coerced by SQLite")
        #expect(try plan("#size == nil AND process == 'a'").sqlWhere == "process = ?")
    }

    @Test func nothingForSQLMeansFullScanExplained() throws {
        let plan = try plan(#"message MATCHES[c] ".*error.*""#)
        #expect(plan.sqlWhere == nil)
        #expect(plan.explanation.first?.hasPrefix("SQL: no condition") == true)
        #expect(plan.explanation.last == #"per record (Swift): message MATCHES[c] ".*error.*""#)
    }

    /// Issue 15: an option-less MATCHES is narrowed in SQL by its literal runs (two characters or
    /// more), byte for byte; the regex still decides in Swift.
    @Test func caseSensitiveMatchesNarrowsByItsLiteralRuns() throws {
        let runs = try plan(#"message MATCHES ".*Push (to|from) .*\.sync [0-9]+/4""#)
        #expect(runs.sqlWhere == "(diag_contains(eventMessage, ?)) AND (diag_contains(eventMessage, ?)) AND (diag_contains(eventMessage, ?))")
        #expect(runs.bindings == [.text("Push "), .text(".sync "), .text("/4")])
        #expect(runs.residual != nil)
        #expect(runs.messageSearch == ["push ", ".sync "])
        #expect(try plan(#"process MATCHES "com\.apple\..*""#).sqlWhere == "diag_contains(process, ?)")
        #expect(try plan(#"message MATCHES[c] ".*Push.*""#).sqlWhere == nil, "[c]: a match may spell the run otherwise")
        #expect(try plan(#"message MATCHES[d] ".*Push.*""#).sqlWhere == nil)
        #expect(try plan(#"message MATCHES "push|pull""#).sqlWhere == nil, "no run is required")
        #expect(try plan(#"message MATCHES ".*a.*""#).sqlWhere == nil, "a one-character run is not worth a test")
        #expect(try plan(#"NOT message MATCHES ".*Push.*""#).sqlWhere == nil, "a superset cannot be negated")
        let either = try plan(#"process == "apsd" OR message MATCHES ".*Push.*""#)
        #expect(either.sqlWhere == "(process = ?) OR (diag_contains(eventMessage, ?))")
        #expect(either.residual != nil)
    }
}
