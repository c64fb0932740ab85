import DiagModel
import Foundation

/// `report.html`: one self-contained page (inline CSS, and a small inline script for the
/// triage view's zoom and clicks; nothing fetched) with the bundle's facts, the query, a
/// timeline per component and the errors and faults.
struct ReportPage {
    var manifest: BundleManifest
    var statistics: BundleStatistics
    var errors: ErrorDigest
    var notes: String?
    /// The triage view's intervals, marks and records; without it, per-minute bars per component.
    var triage: TriageData? = nil
    /// Errors grouped by pattern and the top patterns per component (ReportPage+Patterns.swift).
    var patterns: ReportPatterns? = nil

    static let levelOrder: [MessageType] = [.fault, .error, .default, .info, .debug]

    func html() -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>\(Self.style)</style></head><body>
            <header><h1>\(escape(title))</h1>
            <p class="sub">\(escape(manifest.host)) · collected \(escape(Timestamp.format(nanoseconds: manifest.created))) · \(escape(manifest.kind)) bundle\(manifest.redacted ? " · <b>redacted</b>" : "")</p>
            </header><main>
            """
        page += facts()
        page += levelChips()
        if let notes, !notes.isEmpty { page += "<section><h2>Notes</h2><pre class=\"notes\">\(escape(notes))</pre></section>" }
        page += triage.map { TriageView(data: $0).html() } ?? timelines()
        page += patterns?.problemSection(total: Int(errors.count)) ?? errorTable()
        page += topLists()
        page += patterns?.componentSection() ?? ""
        page += "</main><footer>diag \(escape(manifest.toolVersion)) · bundle format \(manifest.formatVersion) · checksums in manifest.json</footer></body></html>\n"
        return page
    }

    private var title: String { manifest.title ?? "Diagnostics from \(manifest.host)" }

    private func facts() -> String {
        let window = [manifest.windowStart.map { Timestamp.format(nanoseconds: $0) } ?? "the oldest record",
                      manifest.windowEnd.map { Timestamp.format(nanoseconds: $0) } ?? "the newest record"]
        var rows = [
            ("Window", "\(window[0]) → \(window[1])"),
            ("Query", manifest.predicate ?? "every record in the window"),
            ("Kernel", manifest.kernel),
        ]
        for (name, value) in manifest.identifiers.sorted(by: { $0.key < $1.key }) { rows.append((name, value)) }
        for store in manifest.stores { rows.append(("Store file", "\(store.name): \(store.snapshot)")) }
        let cells = rows.map { "<tr><th>\(escape($0.0))</th><td><code>\(escape($0.1))</code></td></tr>" }.joined()
        return "<section><table class=\"facts\">\(cells)</table></section>"
    }

    private func levelChips() -> String {
        let chips = Self.levelOrder.map { level in
            "<span class=\"chip \(level.name.lowercased())\"><b>\(statistics.levels[level] ?? 0)</b> \(level.name)</span>"
        }.joined()
        return "<section class=\"chips\"><span class=\"chip total\"><b>\(statistics.total)</b> records</span>\(chips)</section>"
    }

    /// One inline SVG histogram per process: bars of records per time bucket, stacked by level,
    /// all on the same time axis so bursts line up across components.
    private func timelines() -> String {
        let allMinutes = statistics.minutes.keys
        guard let first = allMinutes.min(), let last = allMinutes.max() else {
            return "<section><h2>Timeline</h2><p class=\"empty\">No records in the window.</p></section>"
        }
        let minuteCount = Int((last - first) / BundleStatistics.nanosecondsPerMinute) + 1
        let minutesPerBar = max(1, (minuteCount + 179) / 180)
        let barCount = (minuteCount + minutesPerBar - 1) / minutesPerBar
        let width = 900.0, height = 90.0
        let barWidth = width / Double(barCount)
        var section = "<section><h2>Timeline per component</h2><p class=\"legend\">"
        section += Self.levelOrder.map { "<span class=\"swatch \($0.name.lowercased())\"></span>\($0.name)" }.joined(separator: " ")
        section += " · one bar = \(Self.duration(minutes: minutesPerBar))</p>"
        let ranked = statistics.processes.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        // The busiest components get a timeline each; the rest share one, so the page stays short.
        var rows: [(name: String, total: Int64, members: [String])] = ranked.prefix(Self.timelineLimit).map { ($0.key, $0.value, [$0.key]) }
        if ranked.count > Self.timelineLimit {
            let rest = ranked.dropFirst(Self.timelineLimit)
            rows.append(("\(rest.count) other processes", rest.reduce(0) { $0 + $1.value }, rest.map(\.key)))
        }
        for (process, total, members) in rows {
            var bars = [[MessageType: Int64]](repeating: [:], count: barCount)
            var errors: Int64 = 0
            for member in members {
                for (minute, levels) in statistics.timeline[member] ?? [:] {
                    let bar = Int((minute - first) / BundleStatistics.nanosecondsPerMinute) / minutesPerBar
                    for (level, count) in levels { bars[bar][level, default: 0] += count }
                    errors += (levels[.error] ?? 0) + (levels[.fault] ?? 0)
                }
            }
            let peak = max(1, bars.map { $0.values.reduce(0, +) }.max() ?? 1)
            var shapes = ""
            for (index, bar) in bars.enumerated() {
                var y = height
                for level in Self.levelOrder.reversed() {
                    guard let count = bar[level], count > 0 else { continue }
                    let h = max(1, Double(count) / Double(peak) * (height - 4))
                    y -= h
                    shapes += "<rect class=\"\(level.name.lowercased())\" x=\"\(format(Double(index) * barWidth))\" y=\"\(format(y))\" width=\"\(format(max(1, barWidth - 1)))\" height=\"\(format(h))\"><title>\(escape(minuteLabel(first, index * minutesPerBar))) \(level.name): \(count)</title></rect>"
                }
            }
            section += """
                <div class="component"><div class="component-head"><h3>\(escape(process))</h3>
                <span>\(total) records\(errors > 0 ? " · <b class=\"bad\">\(errors) errors and faults</b>" : "") · peak \(peak) per bar</span></div>
                <svg viewBox="0 0 \(Int(width)) \(Int(height))" preserveAspectRatio="none" role="img" aria-label="records of \(escape(process)) over time">
                <line class="axis" x1="0" y1="\(height)" x2="\(width)" y2="\(height)"/>\(shapes)</svg>
                <div class="axis-labels"><span>\(escape(minuteLabel(first, 0)))</span><span>\(escape(minuteLabel(first, minuteCount)))</span></div></div>
                """
        }
        return section + "</section>"
    }

    private func errorTable() -> String {
        guard errors.count > 0 else {
            return "<section><h2>Errors and faults</h2><p class=\"empty\">None in the window.</p></section>"
        }
        var rows = ""
        for record in errors.firstRecords {
            let origin = [record.subsystem, record.category].compactMap { $0 }.joined(separator: " · ")
            rows += "<tr class=\"\(record.messageType.name.lowercased())\"><td class=\"time\">\(escape(Timestamp.format(nanoseconds: record.timestamp)))</td><td><span class=\"tag \(record.messageType.name.lowercased())\">\(record.messageType.name)</span></td><td>\(escape(record.process ?? BundleStatistics.unknown))\(record.processID.map { "[\($0)]" } ?? "")</td><td class=\"origin\">\(escape(origin))</td><td class=\"message\">\(escape(record.eventMessage))</td></tr>"
        }
        let more = errors.count > errors.firstRecords.count
            ? "<p class=\"more\">The first \(errors.firstRecords.count) of \(errors.count); every one is in <code>summaries/errors.txt</code>.</p>" : ""
        return "<section><h2>Errors and faults <span class=\"count\">\(errors.count)</span></h2><table class=\"errors\"><thead><tr><th>Time (UTC)</th><th>Level</th><th>Process</th><th>Subsystem · category</th><th>Message</th></tr></thead><tbody>\(rows)</tbody></table>\(more)</section>"
    }

    private func topLists() -> String {
        func list(_ title: String, _ counts: [String: Int64]) -> String {
            let top = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(10)
            let peak = Double(top.first?.value ?? 1)
            let rows = top.map { "<tr><td>\(escape($0.key))</td><td class=\"num\">\($0.value)</td><td class=\"share\"><span style=\"width:\(format(Double($0.value) / peak * 100))%\"></span></td></tr>" }.joined()
            return "<div><h3>\(title)</h3><table class=\"top\">\(rows)</table></div>"
        }
        return "<section><h2>Who logged</h2><div class=\"columns\">\(list("Processes", statistics.processes))\(list("Senders", statistics.senders))\(list("Subsystems", statistics.subsystems))</div></section>"
    }

    static let timelineLimit = 12

    /// `5 minutes`, `3 hours`, `2 days`, rounded to the largest unit that fits.
    static func duration(minutes: Int) -> String {
        func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
        if minutes < 120 { return unit(minutes, "minute") }
        if minutes < 2 * 1440 { return unit((minutes + 30) / 60, "hour") }
        return unit((minutes + 720) / 1440, "day")
    }

    private func minuteLabel(_ first: Int64, _ offsetMinutes: Int) -> String {
        let text = Timestamp.format(nanoseconds: first + Int64(offsetMinutes) * BundleStatistics.nanosecondsPerMinute)
        return String(text.prefix(16)) + " UTC"
    }

    private func format(_ value: Double) -> String { String(format: "%.1f", value) }

    private func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
