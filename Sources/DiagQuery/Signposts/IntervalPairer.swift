import DiagModel

/// Pairs signpost begins and ends, fed records in time order. Begins wait in a bounded table of
/// open intervals: past `openLimit` the oldest open begin is given up and counted in
/// `overflowed` (its end, if it comes, is then an unmatched end), so memory stays bounded
/// whatever the input. Two begins with one key before an end (a component that reused an ID)
/// are ended first-in first-out.
public struct IntervalPairer {
    public let openLimit: Int
    private var open: [IntervalKey: [SignpostMark]] = [:]
    /// Keys in the order their oldest waiting begin came, to give the oldest up first.
    private var arrival: [IntervalKey] = []
    private var arrivalStart = 0
    public private(set) var openCount = 0
    public private(set) var overflowed = 0

    public init(openLimit: Int = 100_000) {
        self.openLimit = max(1, openLimit)
    }

    public enum Outcome {
        case interval(Interval)
        case unmatchedEnd(SignpostMark)
        case event(SignpostMark)
        case none
    }

    /// The record's part in an interval, if it is a signpost.
    public mutating func take(_ record: LogRecord) -> Outcome {
        guard let kind = SignpostKind(text: record.signpostType) else { return .none }
        let name = record.signpostName ?? ""
        let scope = SignpostScopeKind(text: record.signpostScope)
        let mark = SignpostMark(record, name: name)
        switch kind {
        case .event:
            return .event(mark)
        case .begin:
            let key = IntervalKey(record, name: name, scope: scope)
            open[key, default: []].append(mark)
            arrival.append(key)
            openCount += 1
            if openCount > openLimit { giveUpOldest() } else { compactArrival() }
            return .none
        case .end:
            let key = IntervalKey(record, name: name, scope: scope)
            guard var waiting = open[key], !waiting.isEmpty else { return .unmatchedEnd(mark) }
            let begin = waiting.removeFirst()
            open[key] = waiting.isEmpty ? nil : waiting
            openCount -= 1
            return .interval(Interval(kind: .signpost, begin: begin, endTimestamp: record.timestamp, endMessage: record.eventMessage))
        }
    }

    /// The begins still open at the end of the input, oldest first: the unmatched begins.
    public mutating func finish() -> [SignpostMark] {
        let left = open.values.flatMap { $0 }.sorted { $0.timestamp < $1.timestamp }
        open = [:]
        arrival = []
        arrivalStart = 0
        openCount = 0
        return left
    }

    private mutating func giveUpOldest() {
        while arrivalStart < arrival.count {
            let key = arrival[arrivalStart]
            arrivalStart += 1
            // A key's entry in `arrival` is stale when its begin was ended meanwhile.
            guard var waiting = open[key], !waiting.isEmpty else { continue }
            waiting.removeFirst()
            open[key] = waiting.isEmpty ? nil : waiting
            openCount -= 1
            overflowed += 1
            break
        }
        compactArrival()
    }

    /// `arrival` only grows at the back; its consumed front is dropped now and then, and it is
    /// rebuilt from the open table when ended intervals have left it mostly stale.
    private mutating func compactArrival() {
        if arrivalStart > 4096 && arrivalStart * 2 > arrival.count {
            arrival.removeFirst(arrivalStart)
            arrivalStart = 0
        }
        if arrival.count - arrivalStart > 2 * openCount + 4096 {
            var entries: [(Int64, IntervalKey)] = []
            for (key, marks) in open { for mark in marks { entries.append((mark.timestamp, key)) } }
            entries.sort { $0.0 < $1.0 }
            arrival = entries.map(\.1)
            arrivalStart = 0
        }
    }
}
