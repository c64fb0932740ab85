import DiagModel
import DiagPatterns
import Foundation

/// The top of `report.html` against a baseline: the new, gone and changed patterns of
/// `diag diff BASELINE BUNDLE`, new Error and Fault patterns first.
public enum ReportDiffSection {
    static let rowLimit = 30

    public static func html(_ diff: PatternDiff, baseline: String) -> String {
        var section = "<section class=\"diff\"><h2>What changed since the baseline</h2>"
        section += "<p>Baseline <code>\(DiagBundle.html(baseline))</code>: \(diff.baseTotal) records; this bundle: \(diff.targetTotal). "
        section += "\(diff.new.count) new, \(diff.gone.count) gone, \(diff.changed.count) changed pattern\(diff.changed.count == 1 ? "" : "s") (diag diff).</p>"
        section += table("New in this bundle", diff.new.prefix(rowLimit).map { ($0, $0.target, "\($0.target.count)") }, more: diff.new.count)
        section += table("Gone since the baseline", diff.gone.prefix(rowLimit).map { ($0, $0.base, "\($0.base.count)") }, more: diff.gone.count)
        section += table("Changed in rate", diff.changed.prefix(rowLimit).map { ($0, $0.target, "\($0.base.count) → \($0.target.count)") }, more: diff.changed.count)
        return section + "</section>"
    }

    private static func table(_ title: String, _ rows: [(PatternDiff.Entry, RecordPatternSummary, String)], more: Int) -> String {
        guard !rows.isEmpty else { return "<h3>\(title)</h3><p class=\"empty\">None.</p>" }
        var body = ""
        for (entry, side, count) in rows {
            let level = side.count(of: .fault) > 0 ? "fault" : side.count(of: .error) > 0 ? "error" : "default"
            let levelCell = level == "default" ? "" : "<span class=\"tag \(level)\">\(level == "fault" ? "Fault" : "Error")</span>"
            body += "<tr class=\"\(level)\"><td class=\"num\">\(count)</td><td>\(levelCell)</td>"
            body += "<td>\(DiagBundle.html(RecordPatternSummary.ranked(side.processes).map(\.name).joined(separator: ", ")))</td>"
            body += "<td class=\"message\"><code>\(DiagBundle.html(entry.pattern))</code> <span class=\"count\">\(entry.id)</span><br>\(DiagBundle.html(side.sample ?? ""))</td></tr>"
        }
        let note = more > rows.count ? "<p class=\"more\">The first \(rows.count) of \(more).</p>" : ""
        return "<h3>\(title) <span class=\"count\">\(more)</span></h3><table class=\"errors\"><thead><tr><th>Records</th><th>Level</th><th>Processes</th><th>Pattern · a sample</th></tr></thead><tbody>\(body)</tbody></table>\(note)"
    }

    /// A report page with the section inserted at the top of its `<main>`.
    public static func insert(_ section: String, into page: String) -> String? {
        guard let main = page.range(of: "<main>") else { return nil }
        var page = page
        page.insert(contentsOf: section, at: main.upperBound)
        return page
    }
}
