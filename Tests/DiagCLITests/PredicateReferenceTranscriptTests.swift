import Foundation
import Testing
import TestSupport

/// The runs docs/PREDICATES.md pastes (its `console` blocks) are run again on a store made as
/// its §11 says, by a shell as the reader would, and must print what the page shows.
@Suite struct PredicateReferenceTranscriptTests {
    /// Where the page's store lives; the test's own folder stands in for it.
    static let documentedFolder = "/tmp/predicates"

    @Test func everyPastedRunPrintsWhatThePageShows() throws {
        let runs = try ReferenceRun.all()
        #expect(runs.count >= 12, "docs/PREDICATES.md holds only \(runs.count) runs in console blocks")
        let folder = try TemporaryDirectory("diag-predicates-page")
        // uni.ndjson is shown whole by the `cat` of §11; its bytes are written from there.
        let shown = try #require(runs.first { $0.command == "cat uni.ndjson" }, "§11 no longer shows uni.ndjson")
        try folder.write("uni.ndjson", shown.expectedOutput)
        let path = BuiltProducts.directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let environment = ["DIAG_STORE": folder.file("store").path, "TZ": "UTC", "PATH": path]
        // The `export` of §11 sets what `environment` already holds.
        for run in runs where !run.command.hasPrefix("export ") {
            let output = try TestSupport.run("/bin/sh", ["-c", run.command], environment: environment, currentDirectory: folder.path)
            #expect(output.status == 0, "line \(run.line): \(run.command): \(output.stderr)")
            let expected = run.expectedOutput.replacingOccurrences(of: Self.documentedFolder, with: folder.path)
            #expect(output.stdout == expected, "line \(run.line): \(run.command) prints something else")
        }
    }
}

/// `$ command` and the lines after it, up to the next `$ `, in a console block of the page.
struct ReferenceRun {
    var command: String
    var expectedOutput: String
    var line: Int

    /// In the order a reader runs them: the block that makes the store first.
    static func all() throws -> [ReferenceRun] {
        let blocks = try ReferenceBlock.all(in: ReferenceExample.document()).filter { $0.label == "console" }
        let setupFirst = blocks.filter { $0.body.contains("$ diag generate") } + blocks.filter { !$0.body.contains("$ diag generate") }
        return setupFirst.flatMap(runs(in:))
    }

    static func runs(in block: ReferenceBlock) -> [ReferenceRun] {
        var runs: [ReferenceRun] = []
        for (offset, text) in block.body.components(separatedBy: "\n").enumerated() {
            if text.hasPrefix("$ ") {
                runs.append(ReferenceRun(command: String(text.dropFirst(2)), expectedOutput: "", line: block.line + 1 + offset))
            } else if !runs.isEmpty {
                runs[runs.count - 1].expectedOutput += text + "\n"
            }
        }
        return runs
    }
}
