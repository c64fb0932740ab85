import Foundation
import Testing
import TestSupport

/// Hostile and broken input: refused with its place and a reason, never a crash.
@Suite struct BadInputTests {
    @Test func badLinesAreNamedAndGoodRecordsShown() throws {
        let folder = try TemporaryDirectory("diag-bad")
        let lines = Fixtures.appleNDJSON.split(separator: "\n").map(String.init)
        let file = try folder.write("bad.ndjson", [lines[0], "{\"timestamp\": \"yesterday\", \"eventMessage\": \"x\"}", lines[1], "[1, 2", "\u{1}\u{2}binary"].joined(separator: "\n") + "\n")
        let output = try diag(["show", "--style", "ndjson", file])
        #expect(output.status == 65)
        let stdout = output.stdout.split(separator: "\n")
        #expect(stdout.count == 2)
        let stderr = output.stderr.split(separator: "\n").map(String.init)
        #expect(stderr.count == 4)
        #expect(stderr[0].hasPrefix("\(file):2:"))
        #expect(stderr[1].hasPrefix("\(file):4:"))
        #expect(stderr[2].hasPrefix("\(file):5:"))
        #expect(stderr[3] == "diag show: 3 lines were refused (not records); 2 records shown")
    }

    @Test func badPredicatesExit65WithACaret() throws {
        let folder = try TemporaryDirectory("diag-bad-predicate")
        let file = try folder.write("a.ndjson", Fixtures.appleNDJSON)
        for predicate in ["process ==", "process == 'x' AND", "nosuchfield == 1", "process == $UNBOUND", "((((", "message MATCHES '['", "\u{0}"] {
            let output = try diag(["show", "--predicate", predicate, file])
            #expect(output.status == 65, "predicate \(predicate)")
            #expect(output.stderr.hasPrefix("Error: "), "predicate \(predicate)")
            #expect(output.stdout == "")
        }
        let caret = try diag(["show", "--predicate", "process == 'a' AND AND", file])
        #expect(caret.stderr.contains("^"))
        let deep = try diag(["show", "--predicate", String(repeating: "(", count: 10000) + "TRUEPREDICATE" + String(repeating: ")", count: 10000), file])
        #expect(deep.status == 65)
    }

    /// Commands AND conditions of their own into the predicate (`show` leaves signposts out,
    /// `--activity`, `--grep`, `stats --process`, `signposts`, `stream --sender`): an error is still
    /// placed in what the user typed, and a text that is no predicate is refused even where the
    /// wrapper's parentheses would have closed it into one.
    @Test func errorsArePlacedInTheUsersPredicateNotInTheCommandsWrapper() throws {
        let folder = try TemporaryDirectory("diag-bad-wrapped")
        let file = try folder.write("a.ndjson", Fixtures.appleNDJSON)
        let socket = folder.file("no-diagd.sock").path
        let commands: [[String]] = [
            ["show", file], ["show", "--signpost", file], ["show", "--activity", "5", file], ["show", "--grep", "x", file],
            ["signposts", file], ["signposts", "--activities", file], ["stats", "--process", "p", file],
            ["stream", "--sender", "s", "--socket", socket],
        ]
        for command in commands {
            let unclosed = try diag(command + ["--predicate", "message CONTAINS[cd"])
            #expect(unclosed.status == 65, "\(command)")
            #expect(unclosed.stderr.contains("(column 20)\n  message CONTAINS[cd\n                     ^"), "\(command): \(unclosed.stderr)")
            #expect(!unclosed.stderr.contains("line 2"), "\(command): \(unclosed.stderr)")
            let secondLine = try diag(command + ["--predicate", "process == \"a\" AND\n  nosuch == 2"])
            #expect(secondLine.status == 65, "\(command)")
            #expect(secondLine.stderr.contains("(line 2, column 3)\n    nosuch == 2\n    ^"), "\(command): \(secondLine.stderr)")
            // Alone it is no predicate; inside `(…\n) AND c` it would parse, with c on one side only.
            let escaping = try diag(command + ["--predicate", "process == \"a\") OR (process == \"b\""])
            #expect(escaping.status == 65, "\(command): \(escaping.stdout)")
            #expect(escaping.stderr.contains("unbalanced ')'"), "\(command): \(escaping.stderr)")
            #expect(escaping.stdout == "")
        }
        // diagd parses what stream sends with no nesting beyond check's 256 levels: the --sender
        // wrapper's level counts here, so the refusal comes with a caret, before any connection.
        let deep = String(repeating: "(", count: 256) + "TRUEPREDICATE" + String(repeating: ")", count: 256)
        #expect(try diag(["predicate", "check", deep]).status == 0)
        let streamed = try diag(["stream", "--sender", "s", "--socket", socket, "--predicate", deep])
        #expect(streamed.status == 65)
        #expect(streamed.stderr.contains("nested too deeply"), "\(streamed.stderr)")
        // Placed in the user's text: its 256th parenthesis, on its one line (not the wrapper's 257th
        // on "line 1" of two), with the reason the level is one too many.
        #expect(streamed.stderr.contains("(column 256)"), "\(streamed.stderr)")
        #expect(streamed.stderr.contains("counting the parentheses that this command's options put around"), "\(streamed.stderr)")
        #expect(!streamed.stderr.contains("line 1"), "\(streamed.stderr)")
        #expect(!streamed.stderr.contains("connect"), "\(streamed.stderr)")
    }

    @Test func predicateFilesThatHoldNothingOrCannotBeRead() throws {
        let folder = try TemporaryDirectory("diag-predicate-file")
        let file = try folder.write("a.ndjson", Fixtures.appleNDJSON)
        let empty = try folder.write("empty.predicate", "# only a comment\n\n")
        let output = try diag(["show", "--predicate-file", empty, file])
        #expect(output.status == 65)
        #expect(output.stderr == "Error: \(empty): the predicate file holds no predicate (only comments or blank lines)\n")
        let missing = try diag(["show", "--predicate-file", folder.file("nothing").path, file])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read the predicate file"))
    }

    @Test func sourcesThatAreNotThere() throws {
        let folder = try TemporaryDirectory("diag-missing")
        // A path the user named that is missing, or a folder that is no source, is bad input
        // (65, issue 13 item 11); a missing default store is the machine's state (1).
        let missing = try diag(["show", folder.file("absent.log").path])
        #expect(missing.status == 65)
        #expect(missing.stderr == "Error: \(folder.file("absent.log").path): no such file or directory\n")
        let notAStore = try diag(["show", folder.path])
        #expect(notAStore.status == 65)
        #expect(notAStore.stderr.contains("neither a log store"))
        let noDefault = try diag(["show"], environment: ["DIAG_STORE": folder.file("none").path])
        #expect(noDefault.status == 1)
        #expect(noDefault.stderr.contains("no log store at \(folder.file("none").path) (the default store)"))
        let unknown = try diag(["show", try folder.write("garbage.bin", "\u{7F}ELF\u{0}\u{0}garbage\n")])
        #expect(unknown.status == 65)
        #expect(unknown.stderr.hasPrefix("Error: "))
    }

    @Test func brokenStoresAreReportedNotCrashedOn() throws {
        let folder = try TemporaryDirectory("diag-broken-store")
        let store = folder.file("store").path
        _ = try diag(["import", "--store", store, try folder.write("a.ndjson", Fixtures.appleNDJSON)])
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: store + "/Info.json"))
        let output = try diag(["show", store])
        #expect(output.status == 65)
        #expect(output.stderr.hasPrefix("Error: "))
        #expect(output.stderr.contains("Info.json"))
    }
}

/// Bytes no log tool writes: NUL, invalid UTF-8, a huge line, an empty file.
@Suite struct HostileFileTests {
    @Test func strangeBytesAreShownOrRefusedNeverCrashedOn() throws {
        let folder = try TemporaryDirectory("diag-hostile")
        let good = Fixtures.appleNDJSON.split(separator: "\n").first.map(String.init)!
        var bytes = Data(good.utf8) + Data([0x0A])
        bytes += Data([0x7B, 0x00, 0xFF, 0xFE, 0x0A])
        bytes += Data(("{\"eventMessage\":\"" + String(repeating: "z", count: 2_000_000) + "\",\"timestamp\":\"2026-11-29 09:40:05Z\"}\n").utf8)
        bytes += Data([0xC3, 0x28, 0x0A])
        let path = folder.file("hostile.ndjson").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let output = try diag(["show", "--style", "compact", path])
        #expect(output.status == 65)
        #expect(output.stderr.contains("\(path):2:"))
        #expect(output.stderr.contains("\(path):4:"))
        #expect(output.stdout.contains("upload started"))
        let empty = try folder.write("empty.log", "")
        let nothing = try diag(["show", "--style", "ndjson", empty])
        #expect(nothing.status == 0)
        #expect(nothing.stdout == "")
    }
}
