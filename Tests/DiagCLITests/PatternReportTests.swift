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

    @Test func aBaselineThatIsNotThereIsAnError() throws {
        let folder = try TemporaryDirectory("diag-report-missing")
        let output = try diag(["report", folder.file("nothing.tar.gz").path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("nothing.tar.gz"))
    }
}
