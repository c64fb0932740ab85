import Foundation
import Testing
import TestSupport
import DiagCommandLine
@testable import DiagCLI

/// The one set of window rules (`TimeWindow`, `WindowOptions`): `--end` is exclusive, so an end
/// at or before the start is refused (64) by every command that takes a window; `--last` and
/// `--start` are refused together; and the start `--last` counts back is held to `--end` too.
@Suite struct WindowRulesTests {
    /// Every command with --start/--end, with what it needs besides to reach its validation
    /// (fleet commands check their window before they connect; diff needs its two sources).
    static let windowCommands: [[String]] = [
        ["show"], ["stats"], ["export", "--format", "ndjson"], ["signposts"], ["patterns"], ["diff", "a", "b"],
        ["fleet", "show"], ["fleet", "stats"], ["collect"], ["feedback", "--title", "t", "--output", "/nonexistent/feedback"],
    ]

    static let day = Int64(1_795_910_400) * 1_000_000_000  // 2026-11-29 00:00 UTC

    @Test func theRuleOnItsOwn() throws {
        #expect(try TimeWindow.checked(start: nil, end: nil) == TimeWindow(start: nil, end: nil))
        #expect(try TimeWindow.checked(start: Self.day, end: nil) == TimeWindow(start: Self.day, end: nil))
        #expect(try TimeWindow.checked(start: nil, end: Self.day) == TimeWindow(start: nil, end: Self.day))
        #expect(try TimeWindow.checked(start: Self.day, end: Self.day + 1) == TimeWindow(start: Self.day, end: Self.day + 1))
        #expect(throws: ValidationError.self) { try TimeWindow.checked(start: Self.day, end: Self.day) }
        #expect(throws: ValidationError.self) { try TimeWindow.checked(start: Self.day + 1, end: Self.day) }
        do {
            _ = try TimeWindow.checked(start: Self.day, end: Self.day - 1, startName: "--last")
            Issue.record("an end before the start was accepted")
        } catch let error as ValidationError {
            #expect(error.message.hasPrefix("--end (2026-11-28 23:59:59.999999+0000) must come after --last (2026-11-29 00:00:00.000000+0000)"))
        }
    }

    @Test(arguments: windowCommands)
    func anEmptyWindowIsRefused(command: [String]) throws {
        let output = try diag(command + ["--start", "2026-11-29 10:00", "--end", "2026-11-29 10:00"])
        #expect(output.status == 64, "\(command): \(output.stderr)")
        #expect(output.stderr.hasPrefix("Error: --end (2026-11-29 10:00:00.000000+0000) must come after --start (2026-11-29 10:00:00.000000+0000)"),
                "\(command): \(output.stderr)")
    }

    @Test(arguments: windowCommands)
    func anEndBeforeTheStartIsRefused(command: [String]) throws {
        let output = try diag(command + ["--start", "2026-11-29 10:00", "--end", "2026-11-29 09:00"])
        #expect(output.status == 64, "\(command): \(output.stderr)")
        #expect(output.stderr.hasPrefix("Error: --end (2026-11-29 09:00:00.000000+0000) must come after --start"), "\(command): \(output.stderr)")
    }

    @Test(arguments: windowCommands)
    func lastAndStartAreRefusedTogether(command: [String]) throws {
        let output = try diag(command + ["--last", "5m", "--start", "2026-11-29 10:00"])
        #expect(output.status == 64, "\(command): \(output.stderr)")
        #expect(output.stderr.hasPrefix("Error: --last and --start cannot be used together"), "\(command): \(output.stderr)")
    }

    @Test func aWindowOfOneSecondReadsItsRecords() throws {
        let folder = try TemporaryDirectory("window-one-second")
        let file = try folder.write("records.ndjson", Fixtures.appleNDJSON)
        // The first record is at 09:40:01.123456 UTC: in [09:40:01, 09:40:02), the second is not.
        for command in [["stats", "--style", "json"], ["export", "--format", "ndjson"]] {
            let output = try diag(command + ["--start", "2026-11-29 09:40:01", "--end", "2026-11-29 09:40:02", file])
            #expect(output.status == 0, "\(command): \(output.stderr)")
            #expect(output.stdout.contains("upload started") || output.stdout.contains("\"events\":1"), "\(command): \(output.stdout)")
        }
    }

    @Test func theStartLastCountsBackIsHeldToEnd() throws {
        let folder = try TemporaryDirectory("window-last-end")
        let file = try folder.write("records.ndjson", Fixtures.appleNDJSON)
        // The newest record is 09:40:03 UTC: --last 1m starts at 09:39:03, after this --end.
        for command in [["stats"], ["export", "--format", "ndjson"]] {
            let output = try diag(command + ["--last", "1m", "--end", "2026-11-29 09:00", file])
            #expect(output.status == 64, "\(command): \(output.stderr)")
            #expect(output.stderr.hasPrefix("Error: --end (2026-11-29 09:00:00.000000+0000) must come after --last (2026-11-29 09:39:03.000000+0000)"),
                    "\(command): \(output.stderr)")
        }
    }

    /// patterns and diff said "--last <duration> … before now" while they counted back from the
    /// sources' newest record and took boot, as show does; the shared help now says so.
    /// signposts counted back from now, even in a bundle of last week: it now reads --last as
    /// show does.
    @Test func patternsLastIsShowsLast() throws {
        let folder = try TemporaryDirectory("window-patterns-last")
        let file = try folder.write("records.ndjson", Fixtures.appleNDJSON)
        // The newest record is at 09:40:03: one second back keeps the Error record of 09:40:02 only.
        let output = try diag(["patterns", "--style", "ndjson", "--last", "1s", file])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.split(separator: "\n").count == 1)
        #expect(output.stdout.contains("retrying after"), "stdout: \(output.stdout)")
        for command in ["patterns", "signposts"] {
            let boot = try diag([command, "--last", "boot", file])
            #expect(boot.status == 64)
            #expect(boot.stderr.hasPrefix("Error: --last boot reads the default store"), "\(command): \(boot.stderr)")
        }
        for command in ["patterns", "diff", "signposts"] {
            #expect(try diag([command, "--help"]).stdout.contains("--last <duration|boot>  Show only the last part of the log"))
        }
    }
}
