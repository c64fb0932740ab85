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
/// (`RecordCursor.overlappingParts`): the sealed chunks cut into time slices, and the others
/// (the open chunk, closed chunks not sealed yet, chunks a message search looks up in their
/// index or through their block sets) read whole, dealt among a few parts read at once.
public struct OverlappingParts: Sendable {
    /// Time slices of the sealed chunks, one task each, in time order: each slice reads every
    /// sealed chunk that has records in it, merged by time, so reading the parts one after
    /// the other gives the sealed chunks' rows in the cursor's order.
    public let parts: [RecordCursorPart]
    /// The chunks read whole, as chains: each chain's chunks apart in time and in time order,
    /// one part each, so that reading a chain's parts one after the other gives its rows in the
    /// cursor's order, and its parts can be read at once like the slices; every chain's rows
    /// are merged with the others' and the slices' by `RowOrder`. These are unsealed chunks,
    /// which have no timestamp index yet (a time slice of one would scan all of it), and with
    /// a message search the chunks with a search index or selective block sets (each slice
    /// would look the needle up in the whole index again: 120 slices made a `MATCHES` with a
    /// common literal ten times slower). A busy diagd's store searched for a phrase is 48
    /// such chunks, which one thread read one after the other; two parts merged by time,
    /// dealt the chunks in turn, still waited for each other chunk by chunk once the output
    /// filled their hand-overs. Empty when there are none.
    public let whole: [[RecordCursorPart]]
    /// The cursor's limit: the merged rows stop there (each part stops there too).
    public let limit: Int?
}

extension RecordCursor {
    /// The cursor's chunks as `OverlappingParts`, for the stores `disjointParts` refuses: sealed
    /// chunks whose times overlap, unsealed chunks beside sealed ones, a limit, chunks searched
    /// through their index or block sets. Nil when nothing would run apart (a single part in
    /// all), when a sealed chunk's time range is unknown, when chunks to read whole or a limit
    /// are present and the reader cannot merge rows by `RowOrder` and cut them at the limit
    /// (`merging` false), or once the cursor was read.
    public func overlappingParts(threads: Int = 2, merging: Bool = true) -> OverlappingParts? {
        guard active.isEmpty, handedOut == nil, !pending.isEmpty, merging || filter.limit == nil else { return nil }
        let searched = !filter.messageSearch.isEmpty
        let blockSearch = searchesThroughBlocks
        let readWhole: (ChunkInfo) -> Bool = {
            !$0.sealed || (searched && ($0.searchIndex || blockSearch))
        }
        let sealed = pending.filter { !readWhole($0) }
        let whole = pending.filter(readWhole)
        guard merging || whole.isEmpty,
              sealed.allSatisfy({ $0.oldestTimestamp != nil && ($0.newestTimestamp ?? .max) < .max })
        else { return nil }
        let cuts = sealed.isEmpty ? [] : Self.overlapCuts(of: sealed, filter: filter, threads: threads, pathOf: pathOf)
        var parts: [RecordCursorPart] = []
        if !sealed.isEmpty {
            for index in 0...cuts.count {
                var slice = filter
                slice.start = index == 0 ? filter.start : cuts[index - 1]
                slice.end = index == cuts.count ? filter.end : cuts[index]
                let chunks = sealed.filter { slice.mayHoldRecords(of: $0) }
                guard !chunks.isEmpty else { continue }
                parts.append(RecordCursorPart(chunks: chunks, paths: chunks.map { pathOf($0.file) }, filter: slice,
                                              trigrams: trigrams, mapped: mapped, task: parts.count))
            }
        }
        let chains = Self.chains(of: whole).map { chain in
            chain.enumerated().map { index, chunk in
                RecordCursorPart(chunks: [chunk], paths: [pathOf(chunk.file)], filter: filter, trigrams: trigrams, mapped: false, task: index)
            }
        }
        guard parts.count + chains.reduce(0, { $0 + $1.count }) > 1 else { return nil }
        pending = []
        return OverlappingParts(parts: parts, whole: chains, limit: filter.limit)
    }

    /// `chunks` (in opening order) as chains of chunks apart in time, each in time order: a
    /// chunk goes to the first chain whose last chunk ends before it begins, or starts a chain
    /// (as does a chunk whose range is unknown). A busy diagd's store is one long chain and a
    /// chain or two of chunks that span the others (the open chunk; a chunk holding diagd's own
    /// records, timed by the clock, beside records sent with older times).
    static func chains(of chunks: [ChunkInfo]) -> [[ChunkInfo]] {
        var chains: [[ChunkInfo]] = []
        let ordered = chunks.enumerated().sorted {
            ($0.element.oldestTimestamp ?? .min, $0.offset) < ($1.element.oldestTimestamp ?? .min, $1.offset)
        }.map(\.element)
        for chunk in ordered {
            if let oldest = chunk.oldestTimestamp, chunk.newestTimestamp != nil,
               let index = chains.firstIndex(where: { $0.last!.newestTimestamp.map { $0 < oldest } ?? false }) {
                chains[index].append(chunk)
            } else {
                chains.append([chunk])
            }
        }
        return chains
    }

    /// Whether this read's message search has trigrams for a chunk's block sets
    /// (`MessageBlocks`): then a sealed chunk without its search index is read whole, like an
    /// indexed chunk, since every time slice would look all of the chunk's candidate rows up
    /// again (three such chunks of 1M records made a rare `CONTAINS` 1.4× slower than scanning
    /// them in slices), and its reader decides from its sets whether to read it id by id or in
    /// order. The chunks read whole are read at once (`OverlappingParts.whole`), so a chunk
    /// that the sets do not narrow costs a thread for its time, no more. The planner used to
    /// probe each chunk's sets itself first: 36 chunks one after the other, with a connection
    /// opened and closed for each, a third of a rare `CONTAINS`'s time through diagd at 10M.
    var searchesThroughBlocks: Bool {
        MessageBlocks.positions(ofNeedles: filter.messageSearch.map(MessageSearchIndex.fold).filter { !$0.isEmpty }) != nil
    }

    /// Where to cut the sealed `chunks`' part of `filter`'s window, ascending, strictly inside
    /// it, the records of each chunk spread as `ChunkTimeSamples` finds them. A full scan (a
    /// message search too: these chunks have no search index): slices of about
    /// `recordsPerSlice` estimated records. A filter with SQL: as `disjointParts` cuts it, at
    /// least `2 × threads` slices of at least `smallestSlice`.
    static func overlapCuts(of chunks: [ChunkInfo], filter: StoreFilter, threads: Int, pathOf: (String) -> String) -> [Int64] {
        let spread = chunks.map { chunk -> [(low: Int64, high: Int64, count: Double)] in
            if let samples = ChunkTimeSamples.of(chunk, path: pathOf(chunk.file)) {
                return samples.ranges(count: Double(max(0, chunk.recordCount)), filter: filter)
            }
            guard let oldest = chunk.oldestTimestamp, let newest = chunk.newestTimestamp, newest < .max else { return [] }
            let low = max(oldest, filter.start ?? .min), high = min(newest + 1, filter.end ?? .max)
            return high > low ? [(low, high, estimatedRecords(of: chunk, in: filter))] : []
        }
        let ranges = spread.flatMap { $0 }
        guard let low = ranges.map(\.low).min(), let high = ranges.map(\.high).max() else { return [] }
        let total = ranges.reduce(0) { $0 + $1.count }
        var count = Int((total / Double(recordsPerSlice)).rounded(.up))
        if filter.whereSQL != nil, filter.messageSearch.isEmpty {
            count = max(1, min(max(2 * threads, count), Int(total) / smallestSlice))
        }
        let cuts = evenCuts(ranges, count: count)
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
