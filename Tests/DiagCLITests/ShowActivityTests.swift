import Foundation
import Testing
import TestSupport

/// `diag show --activity ID`: one operation followed across processes, in time order.
@Suite struct ShowActivityTests {
    @Test func followsOneActivityAcrossProcessesInTimeOrder() throws {
        let folder = try TemporaryDirectory("diag-activity")
        let generated = try diag(["generate", "--count", "3000", "--seed", "7", "--output", folder.file("g.ndjson").path])
        #expect(generated.status == 0, "\(generated.stderr)")
        let all = try diag(["show", "--info", "--debug", "--style", "ndjson", folder.file("g.ndjson").path])
        let records = all.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        // The activity that spans the most processes in the generated data.
        var processes: [Int64: Set<String>] = [:]
        for record in records {
            if let id = (record["activityIdentifier"] as? NSNumber)?.int64Value, id != 0, let process = record["process"] as? String {
                processes[id, default: []].insert(process)
            }
        }
        let (activity, spanned) = try #require(processes.max { $0.value.count < $1.value.count })
        #expect(spanned.count >= 2, "the generator shares activities across processes")
        let expected = records.filter { ($0["activityIdentifier"] as? NSNumber)?.int64Value == activity }

        for form in [String(activity), "0x" + String(activity, radix: 16)] {
            let shown = try diag(["show", "--info", "--debug", "--style", "ndjson", "--activity", form, folder.file("g.ndjson").path])
            #expect(shown.status == 0, "\(shown.stderr)")
            let lines = shown.stdout.split(separator: "\n")
            #expect(lines.count == expected.count)
            let stamps = lines.compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["timestampNanoseconds"] as? NSNumber
            }.map(\.int64Value)
            #expect(stamps == stamps.sorted())
        }
        // Combined with a predicate, both must hold.
        let narrowed = try diag(["show", "--info", "--debug", "--style", "ndjson", "--activity", String(activity),
                                 "--predicate", "process == 'transport'", folder.file("g.ndjson").path])
        #expect(narrowed.stdout.split(separator: "\n").count == expected.filter { $0["process"] as? String == "transport" }.count)
    }

    @Test func refusesAnIdentifierThatIsNotANumber() throws {
        let output = try diag(["show", "--activity", "export-1", "/dev/null"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("'export-1' is invalid for '--activity <id>'"))
    }
}
