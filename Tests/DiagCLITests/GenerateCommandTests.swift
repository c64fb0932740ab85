import Foundation
import Testing
import TestSupport

/// `diag generate`, and its records going through show and import unchanged.
@Suite struct GenerateCommandTests {
    @Test func sameOptionsSameBytes() throws {
        let first = try diag(["generate", "--count", "500", "--seed", "7"])
        let second = try diag(["generate", "--count", "500", "--seed", "7"])
        let other = try diag(["generate", "--count", "500", "--seed", "8"])
        #expect(first.status == 0)
        #expect(first.stdout.split(separator: "\n").count == 500)
        #expect(first.stdout == second.stdout)
        #expect(first.stdout != other.stdout)
        #expect(try diag(["generate", "--count", "0"]).stdout == "")
    }

    @Test func outputFileStartAndRate() throws {
        let folder = try TemporaryDirectory("diag-generate")
        let path = folder.file("records.ndjson").path
        let written = try diag(["generate", "--count", "100", "--start", "2026-01-02 03:04:05", "--rate", "10", "--output", path])
        #expect(written.status == 0)
        #expect(written.stdout == "")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 100)
        #expect(lines.first?.hasPrefix("{\"timestamp\":\"2026-01-02 03:04:05.000000+0000\"") == true)
        let unwritable = try diag(["generate", "--count", "1", "--output", folder.file("no/such/dir/x").path])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr.hasPrefix("Error: cannot write "))
    }

    @Test func generatedRecordsSurviveShowAndImportByteForByte() throws {
        let folder = try TemporaryDirectory("diag-generate-roundtrip")
        let path = folder.file("records.ndjson").path
        #expect(try diag(["generate", "--count", "5000", "--seed", "3", "--output", path]).status == 0)
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let shown = try diag(["show", "--style", "ndjson", "--info", "--debug", path])
        #expect(shown.status == 0)
        #expect(shown.stdout == original)
        let store = folder.file("store").path
        #expect(try diag(["import", "--store", store, path]).status == 0)
        let fromStore = try diag(["show", "--style", "ndjson", "--info", "--debug", store])
        #expect(fromStore.status == 0)
        #expect(fromStore.stdout == original)
    }
}
