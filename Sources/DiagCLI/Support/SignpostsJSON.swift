import DiagModel
import DiagOutput
import DiagQuery

/// The JSON objects of `diag signposts --style json|ndjson`. Durations are seconds (a number);
/// times are written as `diag show` writes `timestamp`, in the display zone, with the
/// nanoseconds beside them.
struct SignpostsJSON {
    var zone: DisplayZone

    static func seconds(_ nanoseconds: Int64) -> JSONValue { .double(Double(nanoseconds) / 1e9) }

    mutating func time(_ nanoseconds: Int64) -> JSONValue {
        .string(Timestamp.format(nanoseconds: nanoseconds, offsetSeconds: zone.offsetSeconds(at: nanoseconds)))
    }

    private static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    private static func optional(_ value: Int64?) -> JSONValue { value.map(JSONValue.int) ?? .null }

    mutating func interval(_ interval: Interval) -> [String: JSONValue] {
        var object: [String: JSONValue] = [
            "kind": .string(interval.kind.rawValue),
            "name": .string(interval.begin.name),
            "subsystem": Self.optional(interval.begin.subsystem),
            "category": Self.optional(interval.begin.category),
            "process": Self.optional(interval.begin.process),
            "processID": Self.optional(interval.begin.processID),
            "threadID": Self.optional(interval.begin.threadID),
            "start": time(interval.begin.timestamp),
            "startNanoseconds": .int(interval.begin.timestamp),
            "duration": Self.seconds(interval.duration),
            "signpostID": Self.optional(interval.begin.signpostID),
            "scope": .string(interval.begin.scope),
            "beginMessage": .string(interval.begin.message),
            "endMessage": .string(interval.endMessage),
        ]
        if interval.kind == .activity {
            object["activityIdentifier"] = Self.optional(interval.begin.signpostID)
            object["processes"] = .array(interval.processes.map(JSONValue.string))
            object["recordCount"] = .int(Int64(interval.recordCount))
        }
        return object
    }

    mutating func mark(_ mark: SignpostMark) -> [String: JSONValue] {
        [
            "name": .string(mark.name),
            "subsystem": Self.optional(mark.subsystem),
            "category": Self.optional(mark.category),
            "process": Self.optional(mark.process),
            "processID": Self.optional(mark.processID),
            "threadID": Self.optional(mark.threadID),
            "timestamp": time(mark.timestamp),
            "timestampNanoseconds": .int(mark.timestamp),
            "signpostID": Self.optional(mark.signpostID),
            "scope": .string(mark.scope),
            "message": .string(mark.message),
        ]
    }

    mutating func summary(_ summary: SignpostAnalysis.NameSummary) -> [String: JSONValue] {
        let statistics = summary.statistics
        let percentiles = statistics.percentiles([0.5, 0.9, 0.99])
        let histogram = zip(DurationStatistics.bucketLabels, statistics.buckets).map { label, count -> JSONValue in
            .object(["bucket": .string(label), "count": .int(Int64(count))])
        }
        return [
            "kind": .string(summary.kind.rawValue),
            "name": .string(summary.name.name),
            "subsystem": .string(summary.name.subsystem),
            "category": .string(summary.name.category),
            "count": .int(Int64(statistics.count)),
            "total": Self.seconds(statistics.total),
            "min": Self.seconds(statistics.minimum),
            "mean": .double(statistics.mean / 1e9),
            "p50": Self.seconds(percentiles[0]),
            "p90": Self.seconds(percentiles[1]),
            "p99": Self.seconds(percentiles[2]),
            "max": Self.seconds(statistics.maximum),
            "percentilesExact": .bool(statistics.percentilesAreExact),
            "histogram": .array(histogram),
            "slowest": .array(summary.slowest.map { .object(interval($0)) }),
        ]
    }

    static func event(_ name: IntervalName, count: Int) -> [String: JSONValue] {
        ["name": .string(name.name), "subsystem": .string(name.subsystem), "category": .string(name.category),
         "count": .int(Int64(count))]
    }

    static func counts(_ analysis: SignpostAnalysis) -> [String: JSONValue] {
        [
            "intervalCount": .int(Int64(analysis.intervalCount)),
            "eventCount": .int(Int64(analysis.eventCount)),
            "unmatchedBeginCount": .int(Int64(analysis.unmatchedBeginCount)),
            "unmatchedEndCount": .int(Int64(analysis.unmatchedEndCount)),
            "openOverflow": .int(Int64(analysis.openOverflowed)),
            "activityOverflow": .int(Int64(analysis.activityOverflowed)),
            "namesOverflow": .int(Int64(analysis.namesOverflowed)),
            "recordsRead": .int(Int64(analysis.recordsRead)),
        ]
    }
}
