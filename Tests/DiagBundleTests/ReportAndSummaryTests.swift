@testable import DiagBundle
import DiagModel
import Foundation
import Testing

struct ReportAndSummaryTests {
    func statistics() -> BundleStatistics {
        var statistics = BundleStatistics()
        let minute: Int64 = 60_000_000_000
        let base: Int64 = 1_795_945_200 * 1_000_000_000
        statistics.add(process: "synccore", sender: "SyncKit", subsystem: "com.example.sync", level: .error, minute: base, count: 3)
        statistics.add(process: "synccore", sender: "SyncKit", subsystem: "com.example.sync", level: .default, minute: base + minute, count: 10)
        statistics.add(process: nil, sender: nil, subsystem: nil, level: .debug, minute: base + 5 * minute, count: 2)
        return statistics
    }

    @Test func statsCountEveryDimension() throws {
        let statistics = statistics()
        #expect(statistics.total == 15)
        #expect(statistics.recordCounts == ["total": 15, "Default": 10, "Info": 0, "Debug": 2, "Error": 3, "Fault": 0])
        let json = try JSONSerialization.jsonObject(with: try statistics.jsonData()) as? [String: Any]
        #expect((json?["processes"] as? [String: Int]) == ["synccore": 13, "(none)": 2])
        #expect((json?["minutes"] as? [String: Int])?["2026-11-29T09:40:00Z"] == 3)
        let timeline = json?["timeline"] as? [String: [String: [String: Int]]]
        #expect(timeline?["synccore"]?["2026-11-29T09:41:00Z"] == ["Default": 10])
    }

    @Test func theReportIsSelfContainedAndEscapesWhatItShows() {
        var manifest = BundleManifest(kind: "feedback", toolVersion: "0.1.0", host: "vm", kernel: "Linux", created: 1_795_945_200 * 1_000_000_000)
        manifest.title = "Stall <after> reconnect"
        manifest.predicate = "process == \"synccore\" AND messageType >= error"
        var errors = ErrorDigest()
        errors.count = 1
        errors.firstRecords = [LogRecord(timestamp: 1_795_945_200 * 1_000_000_000, messageType: .error, process: "synccore",
                                         eventMessage: "<script>alert(1)</script> zone failed")]
        let html = ReportPage(manifest: manifest, statistics: statistics(), errors: errors, notes: "seen twice & more").html()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("src="))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; zone failed"))
        #expect(html.contains("Stall &lt;after&gt; reconnect"))
        #expect(html.contains("process == &quot;synccore&quot; AND messageType &gt;= error"))
        #expect(html.contains("seen twice &amp; more"))
        #expect(html.contains("<svg"))
        #expect(html.contains("<h3>synccore</h3>"))
    }

    @Test func manifestRoundTripsAndRefusesBadOnes() throws {
        var manifest = BundleManifest(kind: "collect", toolVersion: "0.1.0", host: "vm", kernel: "Linux 6", created: 42)
        manifest.windowStart = 10
        manifest.identifiers = ["storeIdentifier": "A"]
        manifest.recordCounts = ["total": 5]
        manifest.stores = [.init(name: "Model", sourcePath: "/x/Model.sqlite", snapshot: "stores/Model/Model.sqlite", asFound: ["stores/Model/as-found/Model.sqlite-wal"])]
        manifest.files = [BundleFileDigest(path: "report.html", size: 3, sha256: String(repeating: "ab", count: 32))]
        #expect(try BundleManifest(jsonData: try manifest.jsonData(), source: "m") == manifest)
        for bad in ["[]", "{\"formatVersion\": 99}", "{\"formatVersion\": 1, \"kind\": \"collect\"}"] {
            #expect(throws: BundleError.self) { try BundleManifest(jsonData: Data(bad.utf8), source: "m") }
        }
    }

    @Test func bundleNamesFollowTheLayout() {
        let name = BundleRequest.bundleName(created: 1_795_945_200 * 1_000_000_000, host: "my host/é")
        #expect(name.hasPrefix("diagnose_2026.11.29_"))
        #expect(name.hasSuffix("_my_host__"))
        #expect(name.range(of: #"^diagnose_\d{4}\.\d{2}\.\d{2}_\d{2}-\d{2}-\d{2}[+-]\d{4}_"#, options: .regularExpression) != nil)
    }
}
