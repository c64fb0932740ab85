import DiagModel
import DiagOutput
import DiagQuery

/// The default style of `diag signposts`: a table per kind, slowest total first, each name
/// followed by its histogram; then events, unmatched begins and ends, and what overflowed.
enum SignpostsText {
    static func summary(_ analysis: SignpostAnalysis, zone: DisplayZone) -> String {
        var zone = zone
        var out = "Intervals: \(analysis.intervalCount) in \(analysis.names.count) name\(analysis.names.count == 1 ? "" : "s")"
        out += "; events: \(analysis.eventCount); unmatched: \(analysis.unmatchedBeginCount) begin\(analysis.unmatchedBeginCount == 1 ? "" : "s"), "
        out += "\(analysis.unmatchedEndCount) end\(analysis.unmatchedEndCount == 1 ? "" : "s")\n"
        out += table(analysis.namesByTotal)
        if !analysis.activityNames.isEmpty {
            out += "\nActivities (creation to last record, across processes): \(analysis.activityNames.values.reduce(0) { $0 + $1.statistics.count })\n"
            out += table(analysis.activityNamesByTotal)
        }
        if !analysis.events.isEmpty {
            out += "\nEvents:\n"
            for (name, count) in analysis.events.sorted(by: { $0.key < $1.key }) {
                out += "  \(SignpostsWriter.pad(String(count), 8))  \(label(name))\n"
            }
        }
        for (title, total, marks) in [("Unmatched begins (never ended)", analysis.unmatchedBeginCount, analysis.unmatchedBegins),
                                      ("Unmatched ends (never begun)", analysis.unmatchedEndCount, analysis.unmatchedEnds)] where total > 0 {
            out += "\n\(title): \(total)\(marks.count < total ? ", the first \(marks.count) listed" : "")\n"
            for mark in marks {
                let time = Timestamp.format(nanoseconds: mark.timestamp, offsetSeconds: zone.offsetSeconds(at: mark.timestamp))
                let id = mark.signpostID.map { "0x" + String(UInt64(bitPattern: $0), radix: 16) } ?? "-"
                out += "  \(time)  \(mark.process ?? "?")[\(mark.processID.map(String.init) ?? "-")]  \(mark.name)  id \(id) (\(mark.scope))  \(mark.message)\n"
            }
        }
        if analysis.openOverflowed > 0 {
            out += "\nOverflow: \(analysis.openOverflowed) open interval\(analysis.openOverflowed == 1 ? " was" : "s were") given up (more than --open-limit open at once); their ends count as unmatched\n"
        }
        if analysis.activityOverflowed > 0 {
            out += "Overflow: \(analysis.activityOverflowed) activit\(analysis.activityOverflowed == 1 ? "y was" : "ies were") not followed (more than --open-limit at once)\n"
        }
        if analysis.namesOverflowed > 0 {
            out += "Overflow: \(analysis.namesOverflowed) interval\(analysis.namesOverflowed == 1 ? "" : "s") or events of names past the first \(analysis.nameLimit) were not counted by name\n"
        }
        return out
    }

    static func label(_ name: IntervalName) -> String {
        name.subsystem.isEmpty && name.category.isEmpty ? name.name : "\(name.name) [\(name.subsystem):\(name.category)]"
    }

    static func table(_ summaries: [SignpostAnalysis.NameSummary]) -> String {
        guard !summaries.isEmpty else { return "" }
        let columns = ["count", "total", "min", "mean", "p50", "p90", "p99", "max"]
        var out = columns.map { SignpostsWriter.pad($0, $0 == "count" ? 8 : 10) }.joined(separator: " ") + "  name\n"
        for summary in summaries {
            let statistics = summary.statistics
            let percentiles = statistics.percentiles([0.5, 0.9, 0.99])
            let values = [statistics.total, statistics.minimum, Int64(statistics.mean.rounded()), percentiles[0], percentiles[1], percentiles[2], statistics.maximum]
            out += SignpostsWriter.pad(String(statistics.count), 8) + " "
            out += values.map { SignpostsWriter.pad(DurationText.format($0), 10) }.joined(separator: " ")
            out += "  \(label(summary.name))\(statistics.percentilesAreExact ? "" : " (percentiles within 0.6%)")\n"
            let bars = zip(DurationStatistics.bucketLabels, statistics.buckets).map { "\($0) \($1)" }.joined(separator: " | ")
            out += "         \(bars)\n"
        }
        return out
    }
}
