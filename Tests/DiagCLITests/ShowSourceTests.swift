import Foundation
import Testing
import TestSupport

/// `diag show` over each kind of plain file it reads.
@Suite struct ShowSourceTests {
    private func ndjsonLines(_ arguments: [String]) throws -> [String] {
        let output = try diag(["show", "--style", "ndjson", "--info", "--debug", "--year", "2026"] + arguments)
        #expect(output.status == 0, "stderr: \(output.stderr)")
        return output.stdout.split(separator: "\n").map(String.init)
    }

    @Test(arguments: ["Mac_2k.log", "Linux_2k.log", "OpenSSH_2k.log", "Android_2k.log"])
    func everyLoghubLineIsARecord(name: String) throws {
        let path = try #require(BuiltProducts.corpusFile(name), "the loghub corpus is missing")
        let lines = try ndjsonLines([path])
        #expect(lines.count == 2000)
        for line in lines.prefix(50) {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }

    @Test func macKernelRecordsByProcessName() throws {
        let path = try #require(BuiltProducts.corpusFile("Mac_2k.log"))
        #expect(try ndjsonLines(["--process", "kernel", path]).count == 775)
        #expect(try ndjsonLines(["--process", "kernel", "--process", "0", path]).count == 775)
        let predicate = try ndjsonLines(["--predicate", "process == \"kernel\"", path])
        #expect(predicate.count == 775)
    }

    @Test func appleJSONReadsLikeAppleNDJSON() throws {
        let folder = try TemporaryDirectory("diag-apple")
        let ndjson = try ndjsonLines([try folder.write("a.ndjson", Fixtures.appleNDJSON)])
        let json = try ndjsonLines([try folder.write("a.json", Fixtures.appleJSON)])
        #expect(ndjson.count == 3)
        #expect(json == ndjson)
    }

    @Test func journalFields() throws {
        let folder = try TemporaryDirectory("diag-journal")
        let output = try diag(["show", "--style", "compact", "--info", try folder.write("journal.json", Fixtures.journal)])
        #expect(output.status == 0)
        try expectMatchesExpected(output.stdout, "journalFields")
    }

    @Test func logcatFields() throws {
        let folder = try TemporaryDirectory("diag-logcat")
        let output = try diag(["show", "--year", "2026", "--info", "--debug", try folder.write("logcat.txt", Fixtures.logcat)])
        #expect(output.status == 0)
        try expectMatchesExpected(output.stdout, "logcatFields")
    }

    @Test func levelsHiddenWithoutInfoAndDebug() throws {
        let folder = try TemporaryDirectory("diag-levels")
        let path = try folder.write("logcat.txt", Fixtures.logcat)
        let plain = try diag(["show", "--style", "ndjson", "--year", "2026", path])
        #expect(plain.stdout.split(separator: "\n").map { $0.contains("\"Error\"") || $0.contains("\"Default\"") } == [true, true])
        #expect(try ndjsonLines([path]).count == 4)
    }

    @Test func severalFilesAreInterleavedByTime() throws {
        let folder = try TemporaryDirectory("diag-merge")
        let logcat = try folder.write("logcat.txt", Fixtures.logcat)
        let journal = try folder.write("journal.json", Fixtures.journal)
        let output = try diag(["show", "--style", "compact", "--info", "--debug", "--year", "2026", logcat, journal])
        #expect(output.status == 0)
        try expectMatchesExpected(output.stdout, "severalFilesAreInterleavedByTime")
    }

    @Test func windowOptionsSelectByTime() throws {
        let folder = try TemporaryDirectory("diag-window")
        let path = try folder.write("apple.ndjson", Fixtures.appleNDJSON)
        #expect(try ndjsonLines(["--start", "2026-11-29 09:40:02", path]).count == 2)
        #expect(try ndjsonLines(["--end", "2026-11-29 10:40:02+0100", path]).count == 1)
        #expect(try ndjsonLines(["--start", "@1795945202", "--end", "@1795945203", path]).count == 1)
        #expect(try ndjsonLines(["--start", "2026-11-29", "--end", "2026-11-30", path]).count == 3)
        // --last counts back from the file's newest record (10:40:03), not from now.
        #expect(try ndjsonLines(["--last", "1s", path]).count == 2)
    }

    @Test func predicatesFromFilesAndVariables() throws {
        let folder = try TemporaryDirectory("diag-predicate")
        let path = try folder.write("apple.ndjson", Fixtures.appleNDJSON)
        let file = try folder.write("errors.predicate", """
            # errors of one subsystem
            subsystem == $SUBSYSTEM
              # the level, as a number
            AND messageType == 16

            """)
        let lines = try ndjsonLines(["--predicate-file", file, "--var", "SUBSYSTEM=com.example.sync", path])
        #expect(lines.count == 1)
        #expect(lines.first?.contains("retrying after 500 ms") == true)
        #expect(try ndjsonLines(["--sender", "libTransport.dylib", "--predicate", "message BEGINSWITH[c] 'UPLOAD'", path]).count == 1)
    }
}
