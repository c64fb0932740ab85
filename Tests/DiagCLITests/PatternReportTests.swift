import Foundation
import Testing
import TestSupport

/// report.html groups errors and faults by pattern and lists each component's top patterns;
/// `diag report BUNDLE --baseline OTHER` puts the diff against another repro at the top.
@Suite struct PatternReportTests {
    static func record(_ second: Int, _ level: String, _ process: String, _ message: String) -> String {
        "{\"timestamp\":\(1_795_945_200 + second)000000000,\"messageType\":\"\(level)\",\"process\":\"\(process)\",\"eventMessage\":\"\(message)\"}\n"
    }

    @Test func reportGroupsErrorsAndShowsTheDiffAgainstABaseline() throws {
        let folder = try TemporaryDirectory("diag-report")
        let environment = ["XDG_CACHE_HOME": folder.file("cache").path, "DIAG_SOCKET": folder.file("no-daemon.sock").path]
        var base = ""
        for second in 0..<40 {
            base += Self.record(second, "Default", "sync-core", "Exported batch \(second) of store 7A1B: \(second * 3) records")
            base += Self.record(second, "Error", "transport", "Upload of batch \(second) failed after \(second + 1) ms")
        }
        var target = base
        for second in 40..<45 { target += Self.record(second, "Fault", "sync-core", "Checksum mismatch in attachment \(second)") }
        let baseFile = try folder.write("base.ndjson", base)
        let targetFile = try folder.write("target.ndjson", target)
        let store = folder.file("store").path
        #expect(try diag(["import", "--store", store, targetFile]).status == 0)
        let collected = try diag(["collect", "--store", store, "--output", folder.path], environment: environment)
        #expect(collected.status == 0, "\(collected.stderr)")
        let bundle = try #require(collected.stdout.split(separator: "\n").last).description

        // The bundle's own page: 45 errors and faults in two patterns, not 45 rows.
        let output = folder.file("report.html").path
        let plain = try diag(["report", bundle, "--output", output], environment: environment)
        #expect(plain.status == 0, "\(plain.stderr)")
        let page = try String(contentsOfFile: output, encoding: .utf8)
        #expect(page.contains("Errors and faults <span class=\"count\">45</span> in 2 patterns"))
        #expect(page.contains("Upload of batch &lt;*&gt; failed after &lt;*&gt;"))
        #expect(page.contains("Top patterns per component"))
        #expect(!page.contains("What changed since the baseline"))

        // Against the baseline: the fault's pattern is new, at the top, before the timeline.
        let compared = try diag(["report", bundle, "--baseline", baseFile], environment: environment)
        #expect(compared.status == 0, "\(compared.stderr)")
        let diffPage = compared.stdout
        let top = try #require(diffPage.range(of: "What changed since the baseline"))
        let newPattern = try #require(diffPage.range(of: "Checksum mismatch in attachment &lt;*&gt;"))
        let timeline = try #require(diffPage.range(of: "Timeline per component"))
        #expect(top.lowerBound < newPattern.lowerBound && newPattern.lowerBound < timeline.lowerBound)
        #expect(diffPage.contains("New in this bundle <span class=\"count\">1</span>"))
        #expect(diffPage.contains("Gone since the baseline <span class=\"count\">") == false)
    }

    static func folder(_ name: String, in parent: TemporaryDirectory) throws -> URL {
        let url = parent.file(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The section of a page that `--baseline` puts at the top.
    static func diffSection(_ page: String) throws -> Substring {
        let start = try #require(page.range(of: "<section class=\"diff\">"), "no diff section")
        let end = try #require(page.range(of: "</section>", range: start.upperBound..<page.endIndex))
        return page[start.lowerBound..<end.upperBound]
    }

    @Test func collectWithABaselineBeginsItsReportWithTheDiff() throws {
        let folder = try TemporaryDirectory("diag-collect-baseline")
        let environment = ["XDG_CACHE_HOME": folder.file("cache").path, "DIAG_SOCKET": folder.file("no-daemon.sock").path]
        var base = ""
        for second in 0..<40 {
            base += Self.record(second, "Default", "sync-core", "Exported batch \(second) of store 7A1B: \(second * 3) records")
            base += Self.record(second, "Info", "scheduler", "Throttled for \(second) s by the server")
        }
        var target = ""
        for second in 0..<40 { target += Self.record(second, "Default", "sync-core", "Exported batch \(second) of store 7A1B: \(second) records") }
        for second in 40..<45 { target += Self.record(second, "Fault", "sync-core", "Checksum mismatch in attachment \(second)") }
        let baseFile = try folder.write("base.ndjson", base)
        let store = folder.file("store").path
        #expect(try diag(["import", "--store", store, try folder.write("target.ndjson", target)]).status == 0)

        let withBaseline = try Self.folder("with", in: folder)
        let collected = try diag(["collect", "--store", store, "--baseline", baseFile, "--output", withBaseline.path], environment: environment)
        #expect(collected.status == 0, "\(collected.stderr)")
        let bundle = try #require(collected.stdout.split(separator: "\n").last).description
        // The bundle's own report.html, as collected.
        let page = try diag(["report", bundle], environment: environment).stdout
        let top = try #require(page.range(of: "What changed since the baseline"))
        let newPattern = try #require(page.range(of: "Checksum mismatch in attachment &lt;*&gt;"))
        let timeline = try #require(page.range(of: "Timeline per component"))
        #expect(top.lowerBound < newPattern.lowerBound && newPattern.lowerBound < timeline.lowerBound)
        #expect(page.contains("New in this bundle <span class=\"count\">1</span>"))
        #expect(page.contains("Gone since the baseline <span class=\"count\">1</span>"))
        #expect(page.contains("Throttled for &lt;*&gt; by the server"))

        // The same section as diag report --baseline over a bundle collected without one.
        let without = try Self.folder("without", in: folder)
        let plain = try diag(["collect", "--store", store, "--output", without.path], environment: environment)
        #expect(plain.status == 0, "\(plain.stderr)")
        let plainBundle = try #require(plain.stdout.split(separator: "\n").last).description
        let plainPage = try diag(["report", plainBundle], environment: environment).stdout
        #expect(!plainPage.contains("What changed since the baseline"))
        let compared = try diag(["report", plainBundle, "--baseline", baseFile], environment: environment)
        #expect(compared.status == 0, "\(compared.stderr)")
        #expect(try Self.diffSection(page) == Self.diffSection(compared.stdout))
    }

    @Test func collectWithAMissingOrDamagedBaselineWritesNoBundle() throws {
        let folder = try TemporaryDirectory("diag-collect-baseline-bad")
        let environment = ["XDG_CACHE_HOME": folder.file("cache").path, "DIAG_SOCKET": folder.file("no-daemon.sock").path]
        let store = folder.file("store").path
        #expect(try diag(["import", "--store", store, try folder.write("a.ndjson", Self.record(1, "Default", "p", "hello 1"))]).status == 0)
        let output = try Self.folder("out", in: folder)
        let missing = try diag(["collect", "--store", store, "--baseline", folder.file("nothing.tar.gz").path, "--output", output.path], environment: environment)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("nothing.tar.gz"), "\(missing.stderr)")
        let damaged = try folder.write("damaged.ndjson", Self.record(1, "Default", "p", "hello 1") + "not a record\n")
        let refused = try diag(["collect", "--store", store, "--baseline", damaged, "--output", output.path], environment: environment)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("--baseline \(damaged): 1 line is not records"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
    }

    @Test func aBaselineThatIsNotThereIsAnError() throws {
        let folder = try TemporaryDirectory("diag-report-missing")
        let output = try diag(["report", folder.file("nothing.tar.gz").path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("nothing.tar.gz"))
    }
}
