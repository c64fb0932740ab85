import DiagModel

/// Pairs signpost begins and ends, fed records in time order. Begins wait in a bounded table of
/// open intervals: past `openLimit` the oldest open begin is given up and counted in
/// `overflowed` (its end, if it comes, is then an unmatched end), so memory stays bounded
/// whatever the input. Two begins with one key before an end (a component that reused an ID)
/// are ended first-in first-out.
public struct IntervalPairer {
    public let openLimit: Int
    private var open: [IntervalKey: Waiting] = [:]
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
        /// A signpost record whose `signpostType` is none of begin, end, event (any case).
        case unknownType
        case none
    }

    /// The record's part in an interval, if it is a signpost.
    public mutating func take(_ record: LogRecord) -> Outcome {
        guard let kind = SignpostKind(text: record.signpostType) else {
            return record.eventType == .signpostEvent ? .unknownType : .none
        }
        let name = record.signpostName ?? ""
        let scope = SignpostScopeKind(text: record.signpostScope)
        let mark = SignpostMark(record, name: name)
        switch kind {
        case .event:
            return .event(mark)
        case .begin:
            let key = IntervalKey(record, name: name, scope: scope)
            if let index = open.index(forKey: key) {
                open.values[index].append(mark)
            } else {
                open[key] = Waiting(first: mark)
            }
            arrival.append(key)
            openCount += 1
            if openCount > openLimit { giveUpOldest() } else { compactArrival() }
            return .none
        case .end:
            let key = IntervalKey(record, name: name, scope: scope)
            guard let index = open.index(forKey: key) else { return .unmatchedEnd(mark) }
            let begin = open.values[index].removeFirst()
            if open.values[index].isEmpty { open.remove(at: index) }
            openCount -= 1
            return .interval(Interval(kind: .signpost, begin: begin, endTimestamp: record.timestamp, endMessage: record.eventMessage))
        }
    }

    /// The begins still open at the end of the input, oldest first: the unmatched begins.
    public mutating func finish() -> [SignpostMark] {
        let left = open.values.flatMap(\.marks).sorted { $0.timestamp < $1.timestamp }
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
            guard let index = open.index(forKey: key) else { continue }
            _ = open.values[index].removeFirst()
            if open.values[index].isEmpty { open.remove(at: index) }
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
            for (key, waiting) in open { for mark in waiting.marks { entries.append((mark.timestamp, key)) } }
            entries.sort { $0.0 < $1.0 }
            arrival = entries.map(\.1)
            arrivalStart = 0
        }
    }
}

/// The begins waiting under one key, oldest first. Almost always one: it is kept inline, so a
/// begin costs no array of its own (a million intervals made a million one-element arrays).
private struct Waiting {
    private var head: SignpostMark?
    private var rest: [SignpostMark] = []
    private var restStart = 0

    init(first: SignpostMark) { head = first }

    var isEmpty: Bool { head == nil }

    var marks: [SignpostMark] { head.map { [$0] + rest[restStart...] } ?? [] }

    mutating func append(_ mark: SignpostMark) {
        if head == nil { head = mark } else { rest.append(mark) }
    }

    /// The oldest begin; the caller checks `isEmpty` first.
    mutating func removeFirst() -> SignpostMark {
        let first = head!
        if restStart < rest.count {
            head = rest[restStart]
            restStart += 1
            if restStart == rest.count {
                rest.removeAll()
                restStart = 0
            } else if restStart > 32, restStart * 2 > rest.count {
                // A key that never drains: its consumed front is dropped now and then.
                rest.removeFirst(restStart)
                restStart = 0
            }
        } else {
            head = nil
        }
        return first
    }
}
