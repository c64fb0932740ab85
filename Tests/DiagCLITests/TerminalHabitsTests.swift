import Foundation
import Testing
import TestSupport

/// `diag show` on a terminal and in pipes, as journalctl users expect: a pager on a terminal
/// only, `-` for standard input, stray first lines, `-n`, `-r`, `--grep`.
@Suite struct TerminalHabitsTests {
    private static let records = TimeHabitsTests.threeRecords

    private func messages(_ output: ProcessOutput) -> [String] {
        output.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["eventMessage"] as? String
        }
    }

    /// Runs the built diag on a pseudo-terminal (util-linux `script`), as a user at a terminal
    /// does, with `unset` taken out of the environment.
    private func onTerminal(_ arguments: [String], environment: [String: String], unset: [String] = []) throws -> ProcessOutput {
        let quoted = ([BuiltProducts.path("diag")] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var env = ["TZ": "UTC", "DIAG_STORE": "/nonexistent/diag-test-store"]
        env.merge(environment) { _, given in given }
        let removals = unset.flatMap { ["-u", $0] }
        return try run("/usr/bin/env", removals + ["/usr/bin/script", "-qec", quoted.joined(separator: " "), "/dev/null"], environment: env)
    }

    /// A pager program that saves what it is given and its arguments, as a test can read them.
    private func fakePager(in folder: TemporaryDirectory, named name: String = "pager") throws -> (path: String, paged: URL, arguments: URL) {
        let paged = folder.file("\(name).out")
        let arguments = folder.file("\(name).args")
        let path = try folder.write(name, "#!/bin/sh\necho \"$*\" > '\(arguments.path)'\ncat > '\(paged.path)'\n")
        chmod(path, 0o755)
        return (path, paged, arguments)
    }

    @Test func aTerminalGetsThePagerAndAPipeDoesNot() throws {
        let folder = try TemporaryDirectory("diag-pager")
        let file = try folder.write("three.ndjson", Self.records)
        let pager = try fakePager(in: folder)
        let paged = try onTerminal(["show", "--style", "compact", file], environment: ["DIAG_PAGER": "\(pager.path) -S"])
        #expect(paged.status == 0, "\(paged.stdout)")
        let text = try String(contentsOf: pager.paged, encoding: .utf8)
        #expect(text.contains("2026-11-29 10:06:00.000 Df p[0:0] record 3"))
        #expect(try String(contentsOf: pager.arguments, encoding: .utf8) == "-S\n")
        #expect(!paged.stdout.contains("record 3"))

        // --no-pager, and a pipe, leave the output where it was going.
        try FileManager.default.removeItem(at: pager.paged)
        let unpaged = try onTerminal(["show", "--no-pager", "--style", "compact", file], environment: ["DIAG_PAGER": pager.path])
        #expect(unpaged.stdout.contains("record 3"))
        #expect(!FileManager.default.fileExists(atPath: pager.paged.path))
        let piped = try diag(["show", "--style", "compact", file], environment: ["DIAG_PAGER": pager.path])
        #expect(piped.stdout.contains("record 3"))
        #expect(!FileManager.default.fileExists(atPath: pager.paged.path))
    }

    @Test func pagerFallsBackToPagerThenLess() throws {
        let folder = try TemporaryDirectory("diag-pager-order")
        let file = try folder.write("three.ndjson", Self.records)
        let fromPAGER = try fakePager(in: folder, named: "pager")
        _ = try onTerminal(["show", file], environment: ["PAGER": fromPAGER.path], unset: ["DIAG_PAGER"])
        #expect(try String(contentsOf: fromPAGER.paged, encoding: .utf8).contains("record 3"))
        // With neither variable, `less -FRX` from PATH: a fake less first on PATH records its arguments.
        try FileManager.default.createDirectory(at: folder.file("bin"), withIntermediateDirectories: true)
        let less = try fakePager(in: folder, named: "bin/less")
        let path = folder.file("bin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let byLess = try onTerminal(["show", file], environment: ["PATH": path], unset: ["DIAG_PAGER", "PAGER"])
        #expect(byLess.status == 0, "\(byLess.stdout)")
        #expect(try String(contentsOf: less.arguments, encoding: .utf8) == "-FRX\n")
        #expect(try String(contentsOf: less.paged, encoding: .utf8).contains("record 3"))
    }

    @Test func dashReadsStandardInput() throws {
        let shown = try diag(["show", "--style", "ndjson", "-"], input: Data(Self.records.utf8))
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(messages(shown) == ["record 1", "record 2", "record 3"])
        let refused = try diag(["show", "--style", "ndjson", "-"], input: Data(("not a record\n" + Self.records).utf8))
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("<stdin>:1:"))
        #expect(messages(refused).count == 3)
    }

    @Test func strayFirstLinesAreReportedAndTheRestIsRead() throws {
        let folder = try TemporaryDirectory("diag-stray")
        let file = try folder.write("garbage.ndjson", "garbage\n" + Self.records)
        let shown = try diag(["show", "--style", "ndjson", file])
        #expect(shown.status == 65)
        #expect(messages(shown) == ["record 1", "record 2", "record 3"])
        #expect(shown.stderr.contains("\(file):1:1:"))
        #expect(shown.stderr.contains("1 line was refused (not records); 3 records shown"))
        let nothing = try diag(["show", try folder.write("notes.txt", "dear diary\nnothing here\n")])
        #expect(nothing.status == 65)
        #expect(nothing.stderr.contains("unknown log format"))
    }

    @Test func linesReverseAndGrep() throws {
        let folder = try TemporaryDirectory("diag-shortcuts")
        let file = try folder.write("three.ndjson", Self.records + #"{"timestamp":"2026-11-29 10:07:00Z","eventMessage":"Upload FAILED\nat line 2 \"quoted\"","messageType":"Error","process":"p"}"# + "\n")
        let store = folder.file("store").path
        #expect(try diag(["import", "--store", store, file]).status == 0)
        for source in [file, store] {
            let show = ["show", "--style", "ndjson", source]
            #expect(messages(try diag(show + ["-n", "2"])).count == 2)
            #expect(messages(try diag(show + ["--lines", "2"])).first == "record 3")
            #expect(messages(try diag(show + ["-r"])).first?.hasPrefix("Upload") == true)
            #expect(messages(try diag(show + ["-r", "-n", "2"])).last == "record 3")
            #expect(messages(try diag(show + ["-n", "0"])).isEmpty)
            #expect(messages(try diag(show + ["--grep", "rd [13]"])) == ["record 1", "record 3"])
            #expect(messages(try diag(show + ["--grep", "failed.at", "--predicate", "messageType == error"])).count == 1)
            #expect(messages(try diag(show + ["--grep", #"\"quoted\""#])).count == 1)
        }
        #expect(try diag(["show", "-n", "-1", file]).status == 64)
        let help = try diag(["show", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("-n, --lines <n>"))
        #expect(help.contains("eventMessage MATCHES[c]"))
        #expect(help.contains("--no-pager"))
    }
}

/// `diag show -f`: the last records of the store, then the new ones, with show's filters.
@Suite struct ShowFollowTests {
    @Test func followShowsTheTailThenNewRecordsThatPassTheFilters() throws {
        let folder = try TemporaryDirectory("diag-follow")
        let store = folder.file("store").path
        #expect(try diag(["import", "--store", store, try folder.write("old.ndjson", TimeHabitsTests.threeRecords)]).status == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("diag"))
        process.arguments = ["show", "-f", "-n", "2", "--style", "ndjson", "--grep", "fresh|record", store]
        process.environment = ["TZ": "UTC", "PATH": "/usr/bin:/bin"]
        let output = Spawning.pipe()
        process.standardOutput = output
        try process.spawn()
        // However slow the machine, a diag that never shows the new record is stopped eventually.
        let guardTimer = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: guardTimer)
        defer { guardTimer.cancel(); if process.isRunning { process.terminate() }; _ = process.waitForExit(seconds: 600) }
        var text = ""
        func readUntil(_ needle: String) {
            while !text.contains(needle) {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { return }
                text += String(decoding: data, as: UTF8.self)
            }
        }
        readUntil("record 3")
        let now = Int64(Date().timeIntervalSince1970) * 1_000_000_000
        let fresh = [#"{"timestamp":\#(now),"eventMessage":"unrelated","messageType":"Default","process":"p"}"#,
                     #"{"timestamp":\#(now + 1),"eventMessage":"fresh record","messageType":"Default","process":"p"}"#]
        #expect(try diag(["import", "--store", store, try folder.write("new.ndjson", fresh.joined(separator: "\n") + "\n")]).status == 0)
        readUntil("fresh record")
        let messages = text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["eventMessage"] as? String
        }
        #expect(messages == ["record 2", "record 3", "fresh record"])
    }

    @Test func followRefusesWhatDoesNotGrow() throws {
        let folder = try TemporaryDirectory("diag-follow-refused")
        let file = try folder.write("three.ndjson", TimeHabitsTests.threeRecords)
        let refused = try diag(["show", "-f", file])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--follow reads one log store"))
    }
}

/// `diag show --source`: where each record comes from, before its message.
@Suite struct ShowSourceLabelTests {
    @Test func sourceShowsTheSendersImageElseItsName() throws {
        let folder = try TemporaryDirectory("diag-source")
        let file = try folder.write("s.ndjson", """
            {"timestamp":1,"eventMessage":"m","process":"p","sender":"S","senderImagePath":"/usr/bin/x(S)"}
            {"timestamp":2,"eventMessage":"n","process":"p","sender":"T"}
            {"timestamp":3,"eventMessage":"o","process":"p"}

            """)
        let compact = try diag(["show", "--source", "--style", "compact", file]).stdout
        #expect(compact.contains("p[0:0] (S) {/usr/bin/x(S)} m\n"))
        #expect(compact.contains("p[0:0] (T) {T} n\n"))
        #expect(compact.contains("p[0:0] o\n"))
        #expect(try diag(["show", "--source", "--style", "default", file]).stdout.contains("p: (S) {/usr/bin/x(S)} m\n"))
        #expect(!(try diag(["show", "--style", "compact", file]).stdout.contains("{")))
        // The json styles carry senderImagePath as a field and keep the message as it is.
        #expect(try diag(["show", "--source", "--style", "ndjson", file]).stdout.contains(#""senderImagePath":"/usr/bin/x(S)","eventMessage":"m"}"#))
    }
}
