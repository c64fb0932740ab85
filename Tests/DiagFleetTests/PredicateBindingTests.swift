import DiagFleet
import DiagPredicate
import DiagQuery
import Foundation
import Testing
import TestSupport

/// The PostgreSQL plan: values bound, never pasted; SQLite's forms mapped to their exact
/// PostgreSQL counterparts; what has none is left to Swift.
@Suite("fleet plans bind every value")
struct PredicateBindingTests {
    func plan(_ text: String, _ selection: RecordSelection = RecordSelection(includeInfo: true, includeDebug: true)) throws -> FleetPlan {
        FleetQuery(selection: selection, predicate: try Predicate.parse(text)).plan()
    }

    static let hostile = [
        #"process == "x'); DROP TABLE records; --""#, #"sender IN {"a'b", "\"c\"", "$1", "?"}"#,
        #"process BEGINSWITH "it's \"quoted\"; --""#, #"message CONTAINS[cd] "100%_done\\""#,
        #"subsystem == 'O\'Brien' OR category == "--\n;""#,
    ]

    @Test(arguments: hostile) func valuesNeverEnterTheSQL(text: String) throws {
        let fleetPlan = try plan(text)
        for value in fleetPlan.parameters.values.compactMap({ $0 }) where value.count > 2 {
            #expect(!fleetPlan.whereSQL.contains(value), "\(fleetPlan.whereSQL)")
        }
        #expect(!fleetPlan.whereSQL.contains("'"), "\(fleetPlan.whereSQL)")
        #expect(!fleetPlan.whereSQL.contains(";"), "\(fleetPlan.whereSQL)")
    }

    @Test(arguments: hostile) func hostileValuesSelectWhatDiagShowSelects(text: String) throws {
        let fixture = try FleetFixture.shared()
        let local = try fixture.diag(["show", "--info", "--debug", "--style", "ndjson", "--predicate", text] + fixture.bundles)
        let fleet = try fixture.diag(["fleet", "show", "--database", fixture.databaseURL, "--info", "--debug", "--style", "ndjson", "--predicate", text])
        #expect(fleet.status == 0, "\(fleet.stderr)")
        #expect(fleet.stdout == local.stdout)
        let connection = try PostgresConnection(url: fixture.databaseURL)
        #expect(try connection.value("SELECT count(*) > 0 FROM records") == "t")
    }

    @Test func theQuotedProcessIsFoundThroughABoundValue() throws {
        let fixture = try FleetFixture.shared()
        let text = #"process == "it's \"quoted\"; --""#
        let fleetPlan = try plan(text)
        #expect(fleetPlan.isExact)
        #expect(fleetPlan.parameters.values.contains(#"it's "quoted"; --"#))
        let fleet = try fixture.diag(["fleet", "show", "--database", fixture.databaseURL, "--info", "--debug", "--style", "ndjson", "--predicate", text])
        #expect(fleet.stdout.split(separator: "\n").count > 5)
    }

    @Test func sqliteFormsBecomeTheirPostgresCounterparts() throws {
        let notEqual = try plan(#"process != "apsd""#)
        #expect(notEqual.whereSQL.contains(#""process" IS DISTINCT FROM $1::text"#), "\(notEqual.whereSQL)")
        let pair = try plan("sender == process")
        #expect(pair.whereSQL.contains(#""sender" IS NOT DISTINCT FROM "process""#), "\(pair.whereSQL)")
        let negated = try plan(#"NOT (process IN {"apsd", "dasd"})"#)
        #expect(negated.whereSQL.contains(#"NOT coalesce("process" IN ($1::text, $2::text), FALSE)"#), "\(negated.whereSQL)")
        let constant = try plan("FALSEPREDICATE")
        #expect(constant.whereSQL == "(FALSE)")
    }

    @Test func doublesCompareExactlyWithIntegers() throws {
        // 2^60 as a double: its shortest form (1.152921504606847e18) is not its value.
        let large = try plan("processID == 1152921504606846976.0")
        #expect(large.parameters.values == ["1152921504606846976"])
        #expect(large.whereSQL.contains("$1::numeric"))
        let fraction = try plan("processID < 10.5")
        #expect(fraction.parameters.values == ["10.5"])
    }

    @Test func whatPostgresCannotDecideExactlyIsCheckedInSwift() throws {
        let metadata = try plan("metadata.count > 2")
        #expect(!metadata.predicateInSQL)
        #expect(metadata.residual != nil)
        let text = try plan(#"metadata.storeIdentifier != "ABC" OR metadata.storeIdentifier == nil"#)
        #expect(text.isExact && text.predicateInSQL)
        #expect(text.whereSQL.contains(#"("metadata"::json ->> $2::text) COLLATE "C" = $3::text"#), "\(text.whereSQL)")
        #expect(text.parameters.values.prefix(3) == ["storeIdentifier", "storeIdentifier", "ABC"])
        let nul = try plan(#"process == "a\000b""#)
        #expect(!nul.predicateInSQL)
        let search = try plan(#"message CONTAINS[cd] "Café au lait""#)
        #expect(search.predicateInSQL && search.residual != nil)
        #expect(search.whereSQL.contains(#""messageFolded" LIKE $1::text"#))
        #expect(search.parameters.values == ["%cafe au lait%"])
    }

    @Test func aListLongerThanPostgresTakesRunsInSwift() throws {
        let list = (1...70_000).map(String.init).joined(separator: ", ")
        let text = "message CONTAINS[c] \"kelvin\" AND processID IN {\(list)}"
        let fleetPlan = try plan(text)
        // The planner keeps a part that binds over 30,000 values out of SQL (SQLShape), so the list
        // never reaches PostgreSQL: only the message search narrows there, and Swift decides.
        #expect(fleetPlan.residual != nil)
        #expect(!fleetPlan.whereSQL.contains("processID"))
        #expect(fleetPlan.parameters.values.count < 100)
        let fixture = try FleetFixture.shared()
        let file = try fixture.folder.write("long.predicate", text)
        let local = try fixture.diag(["show", "--style", "ndjson", "--predicate-file", file] + fixture.bundles)
        let fleet = try fixture.diag(["fleet", "show", "--database", fixture.databaseURL, "--style", "ndjson", "--predicate-file", file])
        #expect(fleet.status == 0, "\(fleet.stderr)")
        #expect(!local.stdout.isEmpty)
        #expect(fleet.stdout == local.stdout)
    }

    @Test func aBadPredicateIsReportedWithItsCaret() throws {
        let fixture = try FleetFixture.shared()
        let shown = try fixture.diag(["fleet", "show", "--database", fixture.databaseURL, "--predicate", #"process == "a" AND"#])
        #expect(shown.status == 65)
        let local = try fixture.diag(["show", "--predicate", #"process == "a" AND"#, fixture.bundles[0]])
        #expect(shown.stderr == local.stderr)
    }
}
