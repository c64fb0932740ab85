import DiagModel
import DiagQuery
import Foundation

/// The slowest intervals per name: each name's statistics, then its slowest intervals, each a
/// link that zooms the timeline to it.
struct SlowestTable {
    var data: TriageData
    static let nameLimit = 20

    func html() -> String {
        guard !data.names.isEmpty else {
            return "<h3>Slowest intervals per name</h3><p class=\"empty\">No signpost intervals in the window.</p>"
        }
        var rows = ""
        for summary in data.names.prefix(Self.nameLimit) {
            let statistics = summary.statistics
            let percentiles = statistics.percentiles([0.5, 0.9, 0.99])
            let figures = [statistics.total, percentiles[0], percentiles[1], percentiles[2], statistics.maximum]
                .map { "<td class=\"num\">\(htmlEscape(DurationLabel.format($0)))</td>" }.joined()
            rows += "<tr class=\"name-row\"><th>\(htmlEscape(summary.name.name))<span class=\"origin\"> \(htmlEscape(summary.name.subsystem)):\(htmlEscape(summary.name.category))</span></th><td class=\"num\">\(statistics.count)</td>\(figures)</tr>"
            for interval in summary.slowest {
                let start = interval.begin.timestamp - data.start
                rows += "<tr class=\"slow\" data-start=\"\(start)\" data-end=\"\(start + interval.duration)\"><td colspan=\"2\">\(htmlEscape(interval.begin.process ?? "?"))[\(interval.begin.processID.map(String.init) ?? "-")] · \(htmlEscape(String(Timestamp.format(nanoseconds: interval.begin.timestamp).dropFirst(11).prefix(12))))</td><td class=\"num\">\(htmlEscape(DurationLabel.format(interval.duration)))</td><td colspan=\"4\" class=\"message\">\(htmlEscape(interval.begin.message)) → \(htmlEscape(interval.endMessage))</td></tr>"
            }
        }
        var notes: [String] = []
        if data.names.count > Self.nameLimit { notes.append("\(data.names.count - Self.nameLimit) more names: diag signposts BUNDLE lists them all") }
        if data.unmatchedBegins > 0 || data.unmatchedEnds > 0 {
            notes.append("\(data.unmatchedBegins) begins never ended and \(data.unmatchedEnds) ends never begun: diag signposts BUNDLE lists them")
        }
        if data.openOverflowed > 0 { notes.append("\(data.openOverflowed) open intervals given up past the bound") }
        let more = notes.isEmpty ? "" : "<p class=\"more\">\(htmlEscape(notes.joined(separator: "; ")))</p>"
        return "<h3>Slowest intervals per name</h3><table class=\"slowest\"><thead><tr><th>Name</th><th class=\"num\">count</th><th class=\"num\">total</th><th class=\"num\">p50</th><th class=\"num\">p90</th><th class=\"num\">p99</th><th class=\"num\">max</th></tr></thead><tbody>\(rows)</tbody></table>\(more)"
    }
}

/// The first records of the window (and every error and fault drawn after them), filterable by
/// text and by the span of what was clicked; the rest are counted, with the command that shows them.
struct RecordTable {
    var data: TriageData

    func html() -> String {
        var rows = ""
        for record in data.records {
            let level = record.eventType == .signpostEvent ? "signpost" : record.messageType.name.lowercased()
            let type = record.eventType == .signpostEvent ? "Signpost \(record.signpostType ?? "")" : record.messageType.name
            let who = "\(record.process ?? "?")[\(record.processID.map(String.init) ?? "-"):\(record.threadID.map { String($0, radix: 16) } ?? "-")]"
            let origin = [record.subsystem, record.category].compactMap { $0 }.joined(separator: ":")
            let message = record.eventType == .signpostEvent ? "\(record.signpostName ?? "") \(record.eventMessage)" : record.eventMessage
            rows += "<tr class=\"\(level)\" data-t=\"\(record.timestamp - data.start)\"><td class=\"time\">\(htmlEscape(String(Timestamp.format(nanoseconds: record.timestamp).dropFirst(11).prefix(15))))</td><td>\(htmlEscape(type))</td><td>\(htmlEscape(who))</td><td class=\"origin\">\(htmlEscape(origin))</td><td class=\"message\">\(htmlEscape(String(message.prefix(2_000))))</td></tr>"
        }
        let rest = data.recordCount - Int64(data.records.count)
        let first = Timestamp.format(nanoseconds: data.start)
        let more = rest > 0 ? "<p class=\"more\">\(data.records.count) of \(data.recordCount) records are in this page (the first ones, then the errors and faults); the other \(rest): <code>diag show BUNDLE --info --debug --signpost --start '\(htmlEscape(String(first.prefix(19))))'</code></p>" : ""
        return """
            <h3>Records</h3><div class="tv-filter"><input id="tv-filter" type="search" placeholder="Filter: text in any column" aria-label="filter records">\
            <button type="button" id="tv-clear">Show all</button><span id="tv-count">\(data.records.count) records</span></div>\
            <div class="records-wrap"><table class="records"><thead><tr><th>Time (UTC)</th><th>Type</th><th>Process[PID:TID]</th><th>Subsystem:category</th><th>Message</th></tr></thead><tbody>\(rows)</tbody></table></div>\(more)
            """
    }
}
