import DiagModel

/// Where a row comes in a store's order: its time, then its chunk's write order, then its id in
/// the chunk, the order in which `RecordCursor` hands rows out. Two streams of rows, each in
/// this order, merged by it give the cursor's output.
public struct RowOrder: Comparable, Sendable {
    public let timestamp: Int64
    public let sequence: Int64
    public let id: Int64

    public static func < (lhs: RowOrder, rhs: RowOrder) -> Bool {
        (lhs.timestamp, lhs.sequence, lhs.id) < (rhs.timestamp, rhs.sequence, rhs.id)
    }
}

extension StoredRow {
    /// The row's place in the store's order.
    public var order: RowOrder { RowOrder(timestamp: reader.timestamp, sequence: reader.chunk.sequence, id: reader.id) }
}

/// A cursor's chunks planned for reading on several threads when they are not apart in time
/// (`RecordCursor.overlappingParts`): the sealed chunks cut into time slices, and the unsealed
/// ones (the open chunk, closed chunks not sealed yet) as one part read by one thread.
public struct OverlappingParts: Sendable {
    /// Time slices of the sealed chunks, one task each, in time order: each slice reads every
    /// sealed chunk that has records in it, merged by time, so reading the parts one after
    /// the other gives the sealed chunks' rows in the cursor's order.
    public let parts: [RecordCursorPart]
    /// The unsealed chunks, merged by time by one cursor. They have no timestamp index yet, so
    /// a time slice of one would scan all of it: they are read once, and merged with the
    /// parts' rows by `RowOrder`. Nil when every chunk is sealed.
    public let unsealed: RecordCursorPart?
    /// The cursor's limit: the merged rows stop there (each part stops there too).
    public let limit: Int?
}

extension RecordCursor {
    /// The cursor's chunks as `OverlappingParts`, for the stores `disjointParts` refuses: sealed
    /// chunks whose times overlap, unsealed chunks beside sealed ones, a limit. Nil when
    /// nothing would run apart (no sealed chunk, or one slice and nothing unsealed), when a
    /// sealed chunk's time range is unknown, when unsealed chunks or a limit are present and
    /// the reader cannot merge rows by `RowOrder` and cut them at the limit (`merging` false),
    /// or once the cursor was read.
    public func overlappingParts(threads: Int = 2, merging: Bool = true) -> OverlappingParts? {
        guard active.isEmpty, handedOut == nil, !pending.isEmpty, merging || filter.limit == nil else { return nil }
        let sealed = pending.filter(\.sealed)
        let unsealed = pending.filter { !$0.sealed }
        guard !sealed.isEmpty, merging || unsealed.isEmpty,
              sealed.allSatisfy({ $0.oldestTimestamp != nil && ($0.newestTimestamp ?? .max) < .max })
        else { return nil }
        let cuts = Self.overlapCuts(of: sealed, filter: filter, threads: threads, pathOf: pathOf)
        guard !cuts.isEmpty || !unsealed.isEmpty else { return nil }
        var parts: [RecordCursorPart] = []
        for index in 0...cuts.count {
            var slice = filter
            slice.start = index == 0 ? filter.start : cuts[index - 1]
            slice.end = index == cuts.count ? filter.end : cuts[index]
            let chunks = sealed.filter { slice.overlaps(oldest: $0.oldestTimestamp, newest: $0.newestTimestamp) }
            guard !chunks.isEmpty else { continue }
            parts.append(RecordCursorPart(chunks: chunks, paths: chunks.map { pathOf($0.file) }, filter: slice,
                                          trigrams: trigrams, mapped: mapped, task: parts.count))
        }
        let unsealedPart = unsealed.isEmpty ? nil : RecordCursorPart(
            chunks: unsealed, paths: unsealed.map { pathOf($0.file) }, filter: filter, trigrams: trigrams, mapped: false, task: parts.count)
        pending = []
        return OverlappingParts(parts: parts, unsealed: unsealedPart, limit: filter.limit)
    }

    /// Where to cut the sealed `chunks`' part of `filter`'s window, ascending, strictly inside
    /// it, the records of each chunk spread as `ChunkTimeSamples` finds them. A full scan:
    /// slices of about `recordsPerSlice` estimated records. A filter with SQL: as
    /// `disjointParts` cuts it, at least `2 × threads` slices of at least `smallestSlice`. A
    /// message search: at each chunk's oldest time (a chunk's index lookups are cheap), and
    /// finer in chunks without a search index, which the search scans.
    static func overlapCuts(of chunks: [ChunkInfo], filter: StoreFilter, threads: Int, pathOf: (String) -> String) -> [Int64] {
        let spread = chunks.map { chunk -> [(low: Int64, high: Int64, count: Double)] in
            if let samples = ChunkTimeSamples(chunk: chunk, path: pathOf(chunk.file)) {
                return samples.ranges(count: Double(max(0, chunk.recordCount)), filter: filter)
            }
            guard let oldest = chunk.oldestTimestamp, let newest = chunk.newestTimestamp, newest < .max else { return [] }
            let low = max(oldest, filter.start ?? .min), high = min(newest + 1, filter.end ?? .max)
            return high > low ? [(low, high, estimatedRecords(of: chunk, in: filter))] : []
        }
        let ranges = spread.flatMap { $0 }
        guard let low = ranges.map(\.low).min(), let high = ranges.map(\.high).max() else { return [] }
        var cuts: [Int64]
        if !filter.messageSearch.isEmpty {
            let scanned = zip(chunks, spread).filter { !$0.0.searchIndex }.flatMap(\.1)
            let count = Int((scanned.reduce(0) { $0 + $1.count } / Double(recordsPerSlice)).rounded(.up))
            cuts = spread.compactMap { $0.first?.low } + evenCuts(scanned, count: count)
        } else {
            let total = ranges.reduce(0) { $0 + $1.count }
            var count = Int((total / Double(recordsPerSlice)).rounded(.up))
            if filter.whereSQL != nil { count = max(1, min(max(2 * threads, count), Int(total) / smallestSlice)) }
            cuts = evenCuts(ranges, count: count)
        }
        return Array(Set(cuts.filter { $0 > low && $0 < high })).sorted()
    }

    /// The `count - 1` times that cut `ranges` (records spread evenly over each range, ranges
    /// overlapping) into `count` slices of equal estimated records.
    static func evenCuts(_ ranges: [(low: Int64, high: Int64, count: Double)], count: Int) -> [Int64] {
        guard count > 1 else { return [] }
        // Between two consecutive range edges, the records per nanosecond are constant.
        let edges = Array(Set(ranges.flatMap { [$0.low, $0.high] })).sorted()
        let total = ranges.reduce(0) { $0 + $1.count }
        let size = total / Double(count)
        var cuts: [Int64] = []
        var before = 0.0
        for (from, to) in zip(edges, edges.dropFirst()) {
            let density = ranges.reduce(0.0) { sum, range in
                range.low <= from && to <= range.high ? sum + range.count / (Double(range.high) - Double(range.low)) : sum
            }
            let records = density * (Double(to) - Double(from))
            while cuts.count < count - 1, density > 0, Double(cuts.count + 1) * size < before + records {
                let into = (Double(cuts.count + 1) * size - before) / density
                let (cut, overflow) = from.addingReportingOverflow(Int64(exactly: into.rounded(.down)) ?? 0)
                cuts.append(overflow ? to : min(to, cut))
            }
            before += records
        }
        return cuts
    }
}
