import DiagModel
import DiagPatterns
import DiagQuery
import DiagStore
import Foundation

/// What `report.html` shows of message patterns: errors and faults grouped by pattern, the top
/// patterns of each component, and, against a baseline bundle, the diff's new, gone and changed
/// patterns at the top of the page.
public struct ReportPatterns: Sendable {
    /// Patterns of the Error and Fault records, by count.
    var problems: [MinedPattern<RecordPatternSummary>] = []
    /// Per process (most records first), its most frequent patterns.
    var components: [(process: String, records: Int, patterns: [(id: String, text: String, count: Int)])] = []

    static let patternsPerComponent = 5
    static let componentLimit = 12
    static let problemLimit = 50

    /// Mines every record of the stream (two miners: all records, and Error and Fault ones),
    /// and counts each in `baseline`'s diff, if any, in the same pass.
    static func mine(_ records: inout some RecordStream, baseline: inout ReportBaseline?) throws -> ReportPatterns {
        var all = PatternMiner<RecordPatternSummary>()
        var problems = PatternMiner<RecordPatternSummary>()
        var perProcess: [String: Int] = [:]
        while let record = try records.next() {
            all.add(record.eventMessage) { $0.count(record) }
            baseline?.count(record)
            if record.messageType == .error || record.messageType == .fault {
                problems.add(record.eventMessage) { $0.count(record) }
            }
            let process = record.process ?? BundleStatistics.unknown
            if perProcess[process] != nil || perProcess.count < 1000 { perProcess[process, default: 0] += 1 }
        }
        var report = ReportPatterns()
        report.problems = problems.finish().sorted { $0.count != $1.count ? $0.count > $1.count : $0.id < $1.id }
        var byProcess: [String: [(id: String, text: String, count: Int)]] = [:]
        for pattern in all.finish() {
            for (process, count) in pattern.summary.processes { byProcess[process, default: []].append((pattern.id, pattern.text, count)) }
        }
        let processes = perProcess.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(componentLimit)
        report.components = processes.map { process, records in
            let top = (byProcess[process] ?? []).sorted { $0.count != $1.count ? $0.count > $1.count : $0.id < $1.id }
            return (process, records, Array(top.prefix(patternsPerComponent)))
        }
        return report
    }

    /// The patterns of every record of a bundle's snapshot chunks.
    static func mine(_ sources: [SummarySource], baseline: inout ReportBaseline?) throws -> ReportPatterns {
        var stream = try SnapshotChunkStream.merged(sources, where: SnapshotChunkStream.everything)
        return try mine(&stream, baseline: &baseline)
    }

    func problemSection(total: Int) -> String {
        guard total > 0 else {
            return "<section><h2>Errors and faults</h2><p class=\"empty\">None in the window.</p></section>"
        }
        var rows = ""
        for pattern in problems.prefix(Self.problemLimit) {
            let summary = pattern.summary
            let level = summary.count(of: .fault) > 0 ? "fault" : "error"
            rows += "<tr class=\"\(level)\"><td class=\"num\">\(summary.count)</td>"
            rows += "<td class=\"time\">\(html(Timestamp.format(nanoseconds: summary.first)))<br>\(html(Timestamp.format(nanoseconds: summary.last)))</td>"
            rows += "<td>\(html(RecordPatternSummary.ranked(summary.processes).map(\.name).joined(separator: ", ")))</td>"
            rows += "<td class=\"message\"><code>\(html(pattern.text))</code> <span class=\"count\">\(pattern.id)</span><br>\(html(summary.sample ?? ""))</td></tr>"
        }
        let more = problems.count > Self.problemLimit ? "<p class=\"more\">The \(Self.problemLimit) largest of \(problems.count) patterns; every record is in <code>summaries/errors.txt</code>.</p>" : ""
        return "<section><h2>Errors and faults <span class=\"count\">\(total)</span> in \(problems.count) pattern\(problems.count == 1 ? "" : "s")</h2><table class=\"errors\"><thead><tr><th>Records</th><th>First · last (UTC)</th><th>Processes</th><th>Pattern · a sample</th></tr></thead><tbody>\(rows)</tbody></table>\(more)</section>"
    }

    func componentSection() -> String {
        guard !components.isEmpty else { return "" }
        var columns = ""
        for component in components {
            let rows = component.patterns.map { "<tr><td class=\"num\">\($0.count)</td><td><code>\(html($0.text))</code></td></tr>" }.joined()
            columns += "<div><h3>\(html(component.process)) <span class=\"count\">\(component.records)</span></h3><table class=\"top\">\(rows)</table></div>"
        }
        return "<section><h2>Top patterns per component</h2><div class=\"columns\">\(columns)</div></section>"
    }
}

/// Text in HTML, escaped.
func html(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        default: escaped.append(character)
        }
    }
    return escaped
}
