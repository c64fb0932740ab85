@testable import DiagBundle
import Foundation
import Testing
import TestSupport

/// report.html's triage view, in a bundle collected by the built `diag`: lanes per component,
/// intervals and activities as bars, errors as marks, the slowest per name, the record table;
/// checked in headless Chromium's DOM (`--dump-dom`) after the page's script ran.
struct ReportTriageTests {
    static let base: Int64 = 1_800_000_000_000_000_000

    static func record(_ ms: Int64, _ process: String, _ pid: Int, _ fields: String) -> String {
        #"{"timestampNanoseconds":\#(base + ms * 1_000_000),"process":"\#(process)","processID":\#(pid),"threadID":7,\#(fields)}"#
    }

    static func signpost(_ ms: Int64, _ process: String, _ pid: Int, _ type: String, _ name: String, _ id: Int, _ message: String) -> String {
        record(ms, process, pid, #""messageType":"Default","eventType":"signpostEvent","subsystem":"com.example.sync","category":"sync","signpostName":"\#(name)","signpostType":"\#(type)","signpostID":\#(id),"signpostScope":"process","eventMessage":"\#(message)""#)
    }

    /// A five-second repro: an activity across three processes, imports (one slow), uploads,
    /// an error and a fault, and a message that must come out escaped.
    static func bundle(in folder: TemporaryDirectory) throws -> URL {
        var lines = [
            record(0, "scheduler", 10, #""messageType":"Default","eventType":"activityCreateEvent","activityIdentifier":77,"eventMessage":"com.example.sync.activity.import""#),
            record(4_900, "transport", 30, #""messageType":"Info","activityIdentifier":77,"eventMessage":"last record of the import""#),
            record(2_000, "sync-core", 20, #""messageType":"Error","eventMessage":"<CKError \"Request Rate Limited\"> & retry""#),
            record(2_500, "transport", 30, #""messageType":"Fault","eventMessage":"connection reset""#),
        ]
        for batch in 0..<4 {
            let start = Int64(100 + batch * 300)
            lines.append(signpost(start, "sync-core", 20, "begin", "import", batch, "batch \(batch)"))
            lines.append(signpost(start + (batch == 2 ? 3_000 : 120), "sync-core", 20, "end", "import", batch, "saved"))
            lines.append(signpost(start + 10, "transport", 30, "begin", "upload", batch, "request \(batch)"))
            lines.append(signpost(start + 40, "transport", 30, "end", "upload", batch, "uploaded"))
        }
        let file = try folder.write("repro.ndjson", lines.joined(separator: "\n") + "\n")
        let store = folder.file("store").path
        let imported = try run(BuiltProducts.path("diag"), ["import", "--store", store, file])
        #expect(imported.status == 0, "\(imported.stderr)")
        let collected = try run(BuiltProducts.path("diag"), ["collect", "--store", store, "--output", folder.path + "/", "--compression", "none"],
                                environment: ["XDG_CACHE_HOME": folder.path, "TZ": "UTC"])
        #expect(collected.status == 0, "\(collected.stderr)")
        let bundle = try #require(collected.stdout.split(separator: "\n").last.map(String.init))
        let extracted = folder.file("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        #expect(try run("/usr/bin/tar", ["-xf", bundle, "-C", extracted.path]).status == 0)
        let top = try #require(try FileManager.default.contentsOfDirectory(atPath: extracted.path).first)
        return extracted.appendingPathComponent(top).appendingPathComponent("report.html")
    }

    /// Debian's chromium (in the Makefile's APT_PACKAGES); where it is missing the test reads
    /// the page as written instead, which holds the same lanes and bars but not the script's work.
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test func theTriageViewDrawsLanesIntervalsActivitiesAndMarks() throws {
        let folder = try TemporaryDirectory("diag-report")
        let report = try Self.bundle(in: folder)
        let written = try String(contentsOf: report, encoding: .utf8)
        #expect(!written.contains("http://") && !written.contains("https://") && !written.contains(" src="))
        #expect(written.contains("&lt;CKError &quot;Request Rate Limited&quot;&gt; &amp; retry"))
        #expect(!written.contains("<CKError"))

        let dom: String
        if let chromium = Self.chromium {
            let dumped = try run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.file("chromium").path)",
                                            "--dump-dom", report.absoluteString], environment: ["HOME": folder.path])
            #expect(dumped.status == 0, "\(dumped.stderr)")
            dom = dumped.stdout
            // The script ran: it marks the view ready and draws the axis's ticks for the window.
            #expect(dom.contains("data-ready=\"1\""))
            #expect(dom.contains("showing 4.900 s of 4.900 s"))
            #expect(Self.count("class=\"tick\"", in: dom) >= 4)
        } else {
            dom = written
        }
        for lane in ["scheduler", "sync-core", "transport"] {
            #expect(dom.contains("data-lane=\"\(lane)\""), "lane \(lane)")
        }
        #expect(Self.count("class=\"bar interval", in: dom) == 8)
        #expect(Self.count("data-name=\"import\"", in: dom) >= 4)
        #expect(Self.count("data-name=\"upload\"", in: dom) >= 4)
        #expect(Self.count("class=\"bar activity", in: dom) == 1)
        #expect(dom.contains("4.900 s com.example.sync.activity.import"))
        // The slow import: 3 s on its bar, first among the slowest of its name.
        #expect(dom.contains(">3.000 s import<"))
        #expect(Self.count("class=\"mark error", in: dom) == 1)
        #expect(Self.count("class=\"mark fault", in: dom) == 1)
        #expect(dom.contains("<h3>Slowest intervals per name</h3>"))
        #expect(Self.count("<tr class=\"slow\"", in: dom) == 8)
        // Every record is in the table (a small bundle).
        #expect(Self.count("data-t=", in: dom) >= 20)
    }

    /// In a 1,400-pixel window nothing sticks out to the right. The "Who logged" tables' share
    /// cells once had the class `bar`, which the timeline's bars also have: they became absolutely
    /// placed and ran past the page's edge.
    @Test func thePageFitsA1400PixelWindow() throws {
        let chromium = try #require(Self.chromium, "Debian's chromium is in the Makefile's APT_PACKAGES")
        let folder = try TemporaryDirectory("diag-report")
        let report = try Self.bundle(in: folder)
        let page = try String(contentsOf: report, encoding: .utf8)
        // A probe after the page's own script: it writes the widths where --dump-dom shows them.
        let probe = """
            <script>addEventListener('load', () => { const e = document.documentElement;
            document.body.setAttribute('data-width', e.clientWidth + ' ' + e.scrollWidth);
            const wide = [...document.querySelectorAll('body *')].filter(n => n.getBoundingClientRect().right > e.clientWidth + 1);
            document.body.setAttribute('data-wide', wide.slice(0, 5).map(n => n.tagName + '.' + n.className).join(' ')); });</script>
            """
        let probed = folder.file("probed.html")
        try page.replacingOccurrences(of: "</body>", with: probe + "</body>").write(to: probed, atomically: true, encoding: .utf8)
        let dumped = try run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.file("chromium").path)",
                                        "--window-size=1400,900", "--dump-dom", probed.absoluteString], environment: ["HOME": folder.path])
        #expect(dumped.status == 0, "\(dumped.stderr)")
        let widths = try #require(Self.attribute("data-width", in: dumped.stdout)).split(separator: " ").compactMap { Int($0) }
        #expect(widths.count == 2 && widths[1] <= widths[0], "client and scroll width: \(widths)")
        #expect(Self.attribute("data-wide", in: dumped.stdout) == "", "past the right edge: \(Self.attribute("data-wide", in: dumped.stdout) ?? "?")")
    }

    static func attribute(_ name: String, in dom: String) -> String? {
        guard let start = dom.range(of: name + "=\"") else { return nil }
        guard let end = dom[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(dom[start.upperBound..<end])
    }

    @Test func aLargeWindowIsBoundedAndSaysWhatIsNotDrawn() throws {
        var data = TriageData()
        data.start = Self.base
        data.end = Self.base + 3_600_000_000_000
        data.recordCount = 1_000_000
        data.intervalCount = 250_000
        data.markCount = 9_000
        let page = TriageView(data: data).html()
        #expect(page.contains("the longest 0 of 250000 intervals drawn"))
        #expect(page.contains("0 of 1000000 records are in this page"))
        #expect(page.contains("the longest 0 of 9000 errors and faults drawn"))
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }
}
