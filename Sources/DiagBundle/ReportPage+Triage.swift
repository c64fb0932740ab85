import DiagModel
import DiagQuery
import Foundation

/// The triage view of report.html: a time axis fitted to the window, one swimlane per component
/// with activities and signpost intervals as bars (their durations on them) and errors and
/// faults as marks, the slowest intervals per name, and a filterable table of records. Every
/// bar and mark is placed in percent of the window by the page itself, so it reads without the
/// script; the small inline script adds zoom and pan, the axis's ticks, and what a click shows.
struct TriageView {
    var data: TriageData
    static let laneLimit = 12
    static let intervalRows = 6
    static let activityRows = 3
    static let rowHeight = 16

    func html() -> String {
        guard !data.isEmpty else {
            return "<section id=\"triage\"><h2>Timeline</h2><p class=\"empty\">No records in the window.</p></section>"
        }
        let span = data.end - data.start
        var out = "<section id=\"triage\" data-start-ms=\"\(data.start / 1_000_000)\" data-start-ns=\"\(data.start)\" data-span=\"\(span)\">"
        out += "<h2>Timeline per component <span class=\"sub-count\">\(htmlEscape(DurationLabel.format(span))) window</span></h2>"
        out += "<p class=\"legend\"><span class=\"swatch activity\"></span>activity <span class=\"swatch interval\"></span>signpost interval "
        out += "<span class=\"swatch error\"></span>error <span class=\"swatch fault\"></span>fault · scroll to zoom, drag to pan, click for the record"
        out += " · \(countText(data.intervals.count, data.intervalCount, "interval")) · \(countText(data.activities.count, data.activityCount, "activity", plural: "activities")) · \(countText(data.marks.count, data.markCount, "error and fault", plural: "errors and faults"))</p>"
        out += "<div class=\"tv-controls\"><button type=\"button\" data-zoom=\"in\">+</button><button type=\"button\" data-zoom=\"out\">−</button><button type=\"button\" data-zoom=\"fit\">Fit</button><span id=\"tv-range\"></span></div>"
        out += "<div class=\"tv-lanes\">"
        out += "<div class=\"lane axis-lane\"><div class=\"lane-name\">UTC</div><div class=\"lane-body tv-axis\">\(staticTicks())</div></div>"
        for lane in lanes() { out += laneHTML(lane) }
        out += "</div><div id=\"tv-detail\" class=\"tv-detail\">Click a bar or a mark to see its record and the records around it.</div>"
        out += SlowestTable(data: data).html()
        out += RecordTable(data: data).html()
        return out + "</section><script>\(ReportScript.source)</script>"
    }

    struct Lane {
        var name: String
        var members: Set<String>
    }

    /// The components with the most records, one lane each; the rest share one.
    private func lanes() -> [Lane] {
        var counts: [String: Int] = [:]
        for record in data.records { counts[record.process ?? BundleStatistics.unknown, default: 0] += 1 }
        for interval in data.intervals { counts[interval.begin.process ?? BundleStatistics.unknown, default: 0] += 1 }
        for bar in data.activities { counts[bar.creator.isEmpty ? BundleStatistics.unknown : bar.creator, default: 0] += 1 }
        for mark in data.marks { counts[mark.process ?? BundleStatistics.unknown, default: 0] += 1 }
        let ranked = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
        var lanes = ranked.prefix(Self.laneLimit).map { Lane(name: $0, members: [$0]) }.sorted { $0.name < $1.name }
        if ranked.count > Self.laneLimit {
            lanes.append(Lane(name: "\(ranked.count - Self.laneLimit) other processes", members: Set(ranked.dropFirst(Self.laneLimit))))
        }
        return lanes
    }

    private func laneHTML(_ lane: Lane) -> String {
        let activities = data.activities.filter { lane.members.contains($0.creator.isEmpty ? BundleStatistics.unknown : $0.creator) }
        let intervals = data.intervals.enumerated().filter { lane.members.contains($0.element.begin.process ?? BundleStatistics.unknown) }
        let marks = data.marks.filter { lane.members.contains($0.process ?? BundleStatistics.unknown) }
        var activityRows = RowPacker(rows: Self.activityRows)
        var intervalRows = RowPacker(rows: Self.intervalRows)
        var bars = ""
        for activity in activities.sorted(by: { $0.start < $1.start }) {
            let row = activityRows.place(activity.start, activity.end)
            let info = "activity \(activity.name.isEmpty ? "(created before the window)" : activity.name) · created by \(activity.creator.isEmpty ? "?" : activity.creator) · \(DurationLabel.format(activity.duration)) · \(activity.records) records across processes · id \(activity.identifier)"
            bars += barHTML(kind: "activity", start: activity.start, end: activity.end, top: row * Self.rowHeight, label: "\(DurationLabel.format(activity.duration)) \(activity.name)", info: info, name: activity.name)
        }
        let activityHeight = activityRows.used * Self.rowHeight
        for (index, interval) in intervals.sorted(by: { $0.element.begin.timestamp < $1.element.begin.timestamp }) {
            let row = intervalRows.place(interval.begin.timestamp, interval.endTimestamp)
            let begin = interval.begin
            let info = "\(begin.name) · \(begin.process ?? "?")[\(begin.processID.map(String.init) ?? "-"):\(begin.threadID.map { String($0, radix: 16) } ?? "-")] · \(DurationLabel.format(interval.duration)) · \(begin.subsystem ?? ""):\(begin.category ?? "") · id \(begin.signpostID.map { "0x" + String(UInt64(bitPattern: $0), radix: 16) } ?? "-") (\(begin.scope)) · begin: \(begin.message) · end: \(interval.endMessage)"
            bars += barHTML(kind: "interval", start: begin.timestamp, end: interval.endTimestamp, top: activityHeight + row * Self.rowHeight,
                        label: "\(DurationLabel.format(interval.duration)) \(begin.name)", info: info, name: begin.name, index: index)
        }
        let marksTop = activityHeight + intervalRows.used * Self.rowHeight
        for mark in marks {
            let level = mark.messageType.name.lowercased()
            bars += "<div class=\"mark \(level)\" style=\"left:\(percent(mark.timestamp - data.start));top:\(marksTop)px\" data-t=\"\(mark.timestamp - data.start)\" data-info=\"\(htmlEscape("\(mark.messageType.name) · \(mark.process ?? "?") · \(mark.eventMessage)"))\" title=\"\(htmlEscape(mark.messageType.name + ": " + String(mark.eventMessage.prefix(200))))\"></div>"
        }
        let height = marksTop + (marks.isEmpty ? 0 : 12) + 4
        return "<div class=\"lane\" data-lane=\"\(htmlEscape(lane.name))\"><div class=\"lane-name\" title=\"\(htmlEscape(lane.name))\">\(htmlEscape(lane.name))</div><div class=\"lane-body\" style=\"height:\(max(height, 20))px\"><div class=\"tv-track\">\(bars)</div></div></div>"
    }

    private func barHTML(kind: String, start: Int64, end: Int64, top: Int, label: String, info: String, name: String, index: Int? = nil) -> String {
        let title = htmlEscape(String(info.prefix(300)))
        return "<div class=\"bar \(kind)\" style=\"left:\(percent(start - data.start));width:\(percent(max(0, end - start)));top:\(top)px\" data-name=\"\(htmlEscape(name))\" data-start=\"\(start - data.start)\" data-end=\"\(end - data.start)\"\(index.map { " data-i=\"\($0)\"" } ?? "") data-info=\"\(htmlEscape(info))\" title=\"\(title)\">\(htmlEscape(label))</div>"
    }

    private func staticTicks() -> String {
        (0...4).map { step in
            let offset = (data.end - data.start) * Int64(step) / 4
            return "<span class=\"tick\" style=\"left:\(step * 25)%\">\(htmlEscape(String(Timestamp.format(nanoseconds: data.start + offset).dropFirst(11).prefix(12))))</span>"
        }.joined()
    }

    private func percent(_ offset: Int64) -> String {
        String(format: "%.4f%%", Double(offset) / Double(max(1, data.end - data.start)) * 100)
    }

    private func countText(_ shown: Int, _ total: Int, _ noun: String, plural: String? = nil) -> String {
        let name = total == 1 ? noun : (plural ?? noun + "s")
        return shown == total ? "\(total) \(name)" : "the longest \(shown) of \(total) \(name) drawn"
    }
}

/// Places bars in the first row where they overlap nothing; the last row takes the rest.
struct RowPacker {
    let rows: Int
    private var ends: [Int64] = []
    private(set) var used = 0

    init(rows: Int) { self.rows = rows }

    mutating func place(_ start: Int64, _ end: Int64) -> Int {
        let row = ends.firstIndex { $0 <= start } ?? (ends.count < rows ? ends.count : rows - 1)
        if row == ends.count { ends.append(end) } else { ends[row] = max(ends[row], end) }
        used = max(used, row + 1)
        return row
    }
}

/// `12 µs`, `4.2 ms`, `2.530 s`, `3 min 05 s`, `2 h 04 min`.
enum DurationLabel {
    static func format(_ nanoseconds: Int64) -> String {
        let value = Double(nanoseconds)
        if nanoseconds < 1_000_000 { return "\(Int((value / 1e3).rounded())) µs" }
        if nanoseconds < 1_000_000_000 { return String(format: "%.1f ms", value / 1e6) }
        if nanoseconds < 120_000_000_000 { return String(format: "%.3f s", value / 1e9) }
        let seconds = nanoseconds / 1_000_000_000
        if seconds < 7_200 { return String(format: "%d min %02d s", seconds / 60, seconds % 60) }
        return String(format: "%d h %02d min", seconds / 3_600, seconds / 60 % 60)
    }
}

func htmlEscape(_ text: String) -> String {
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
