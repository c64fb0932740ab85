import Foundation
import Testing
import TestSupport

/// Each output style of `diag show`, byte for byte, on Apple's NDJSON.
@Suite struct ShowStyleTests {
    let folder: TemporaryDirectory
    let file: String

    init() throws {
        folder = try TemporaryDirectory("diag-styles")
        file = try folder.write("apple.ndjson", Fixtures.appleNDJSON)
    }

    private func show(_ style: String, _ extra: [String] = []) throws -> String {
        let output = try diag(["show", "--style", style, "--info", "--debug"] + extra + [file])
        #expect(output.status == 0)
        #expect(output.stderr == "")
        return output.stdout
    }

    @Test func defaultStyle() throws { try expectMatchesExpected(try show("default"), "defaultStyle") }

    @Test func compactStyle() throws { try expectMatchesExpected(try show("compact"), "compactStyle") }

    @Test func syslogStyle() throws { try expectMatchesExpected(try show("syslog"), "syslogStyle") }

    @Test func jsonStyle() throws {
        let text = try show("json")
        try expectMatchesExpected(text, "jsonStyle")
        let array = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        #expect(array?.count == 3)
    }

    @Test func ndjsonStyle() throws { try expectMatchesExpected(try show("ndjson"), "ndjsonStyle") }

    @Test func timezoneOptionShiftsEveryTimestamp() throws {
        try expectMatchesExpected(try show("compact", ["--timezone", "America/New_York"]), "timezoneOptionShiftsEveryTimestamp")
        let offset = try show("ndjson", ["--timezone", "+0530"])
        #expect(offset.contains("\"timestamp\":\"2026-11-29 15:10:01.123456+0530\""))
        let fromEnvironment = try diag(["show", "--style", "compact", file], environment: ["TZ": "Asia/Tokyo"])
        #expect(fromEnvironment.stdout.contains("2026-11-29 18:40:01.123 Df transport[4242:1a2b]"))
    }

    @Test func colorAlwaysMarksLevels() throws {
        let text = try show("default", ["--color", "always"])
        #expect(text.contains("\u{1B}[31mError\u{1B}[0m"))
        #expect(!(try show("default", ["--color", "none"])).contains("\u{1B}["))
        // Not a terminal: auto means no colour.
        #expect(!(try show("default")).contains("\u{1B}["))
    }

    /// A store's records in the text styles and the json style are formatted on its reading threads
    /// (`StoreRows.writeLines`): the same bytes as the records of the file it was imported from,
    /// which the printer writes one by one, closing counts and colours included.
    @Test func aStoreGivesTheLinesOfItsFile() throws {
        let data = folder.file("generated.ndjson").path
        let store = folder.file("store").path
        #expect(try diag(["generate", "--count", "3000", "--seed", "5", "--output", data]).status == 0)
        #expect(try diag(["import", "--store", store, data]).status == 0)
        for extra in [["--style", "default"], ["--style", "default", "--color", "always"], ["--style", "compact", "--color", "always"],
                      ["--style", "syslog"], ["--style", "json"], ["--style", "default", "--predicate", "messageType == error OR message CONTAINS \"sync\""]] {
            let fromStore = try diag(["show", "--info", "--debug"] + extra + [store])
            let fromFile = try diag(["show", "--info", "--debug"] + extra + [data])
            #expect(fromStore.status == 0)
            #expect(fromStore.stdout.count > 10_000, "\(extra)")
            #expect(fromStore.stdout == fromFile.stdout, "\(extra)")
        }
    }
}
