import Foundation
import Testing
import TestSupport

/// `diag import` into a store, then `diag show` of that store.
@Suite struct ImportCommandTests {
    @Test func importThenShowGivesBackTheRecords() throws {
        let folder = try TemporaryDirectory("diag-import")
        let store = folder.file("store.logarchive").path
        let source = try folder.write("apple.ndjson", Fixtures.appleNDJSON)
        let direct = try diag(["show", "--style", "ndjson", "--info", "--debug", source])
        let imported = try diag(["import", "--store", store, source])
        #expect(imported.status == 0, "stderr: \(imported.stderr)")
        #expect(imported.stdout == "Imported 3 records from 1 file into \(store)\n")
        let shown = try diag(["show", "--style", "ndjson", "--info", "--debug", store])
        #expect(shown.status == 0)
        #expect(shown.stdout == direct.stdout)
        // The default store is used when no SOURCE is given.
        let byDefault = try diag(["show", "--style", "ndjson", "--info", "--debug"], environment: ["DIAG_STORE": store])
        #expect(byDefault.stdout == direct.stdout)
        let info = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store + "/Info.json"))) as? [String: Any]
        let chunks = info?["chunks"] as? [[String: Any]]
        #expect(chunks?.allSatisfy { $0["sealed"] as? Bool == true } == true)
    }

    @Test func importedStoreAnswersPredicatesAndSelections() throws {
        let folder = try TemporaryDirectory("diag-import-query")
        let store = folder.file("store").path
        let mac = try #require(BuiltProducts.corpusFile("Mac_2k.log"))
        let ssh = try #require(BuiltProducts.corpusFile("OpenSSH_2k.log"))
        let imported = try diag(["import", "--store", store, "--year", "2026", mac, ssh])
        #expect(imported.status == 0)
        #expect(imported.stdout.hasPrefix("Imported 4000 records from 2 files"))
        func count(_ arguments: [String]) throws -> Int {
            let output = try diag(["show", "--style", "ndjson", "--info", "--debug"] + arguments + [store])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            return output.stdout.split(separator: "\n").count
        }
        #expect(try count([]) == 4000)
        #expect(try count(["--process", "kernel"]) == 775)
        #expect(try count(["--predicate", "process == 'kernel'"]) == 775)
        #expect(try count(["--process", "sshd", "--predicate", "eventMessage CONTAINS 'Failed password'"])
            == (try count(["--predicate", "process == 'sshd' AND eventMessage CONTAINS 'Failed password'"])))
        let index = try diag(["index", "--store", store])
        #expect(index.status == 0)
        #expect(index.stdout.contains("1 of 1 now have a message search index"))
        #expect(try count(["--predicate", "process == 'kernel'"]) == 775)
        // Time order across the two files' records.
        let lines = try diag(["show", "--style", "ndjson", store]).stdout.split(separator: "\n")
        let times = lines.compactMap { line -> Int64? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["timestampNanoseconds"] as? NSNumber)?.int64Value
        }
        #expect(times.count == lines.count)
        #expect(times == times.sorted())
    }

    @Test func refusedLinesAreReportedAndTheRestImported() throws {
        let folder = try TemporaryDirectory("diag-import-bad")
        let store = folder.file("store").path
        let lines = Fixtures.appleNDJSON.split(separator: "\n")
        let file = try folder.write("mixed.ndjson", [String(lines[0]), "{\"eventMessage\": ", String(lines[1]), "not json at all"].joined(separator: "\n") + "\n")
        let imported = try diag(["import", "--store", store, file])
        #expect(imported.status == 65)
        #expect(imported.stderr.contains("\(file):2:"))
        #expect(imported.stderr.contains("\(file):4:"))
        #expect(imported.stdout == "Imported 2 records from 1 file into \(store); 2 lines were refused\n")
        let shown = try diag(["show", "--style", "ndjson", store])
        #expect(shown.stdout.split(separator: "\n").count == 2)
    }

    @Test func unreadableAndUnknownFilesDoNotStopTheOthers() throws {
        let folder = try TemporaryDirectory("diag-import-files")
        let store = folder.file("store").path
        let good = try folder.write("good.txt", Fixtures.logcat)
        let unknown = try folder.write("unknown.txt", "%%% this is no log format %%%\n")
        let imported = try diag(["import", "--store", store, "--year", "2026", unknown, good])
        #expect(imported.status == 65)
        #expect(imported.stderr.contains("Error: unknown log format in \(unknown)"))
        #expect(imported.stdout.hasPrefix("Imported 4 records from 1 file"))
        let missing = try diag(["import", "--store", store, folder.file("absent.log").path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("absent.log"))
    }

    @Test func standardInputIsAFile() throws {
        let folder = try TemporaryDirectory("diag-import-stdin")
        let store = folder.file("store").path
        let imported = try diag(["import", "--store", store, "-"], input: Data(Fixtures.journal.utf8))
        #expect(imported.status == 0, "stderr: \(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Imported 3 records from 1 file"))
    }
}
