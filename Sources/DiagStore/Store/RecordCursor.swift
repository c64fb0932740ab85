import DiagModel

/// Records of a store in timestamp order, merged across chunks that may overlap in time.
///
/// A chunk's query starts only once the merge reaches its oldest time, so a store of
/// non-overlapping chunks keeps one chunk open at a time, and memory stays flat. Ties in time
/// keep chunk order, then insertion order.
public final class RecordCursor {
    /// Chunks not opened yet, by oldest time (unknown first).
    var pending: [ChunkInfo]
    private(set) var active: [ChunkReader] = []
    let filter: StoreFilter
    let pathOf: (String) -> String
    private var remaining: Int
    /// The message search's trigrams, ranked in the first indexed chunk, for all of them.
    let trigrams: TrigramChoice
    /// Where chunk connections come from when given (kept open across a thread's parts).
    private let connections: ChunkConnections?
    /// Whether chunks are read through a memory map (`mapsChunks`).
    let mapped: Bool
    /// The store's reader mark, held while the cursor reads (`StoreReaders`).
    var readerMark: StoreReaders.Mark?

    /// `mapped` nil decides from the chunks and the filter (`mapsChunks`); parts pass the
    /// decision of the cursor they come from.
    init(chunks: [ChunkInfo], filter: StoreFilter, pathOf: @escaping (String) -> String, trigrams: TrigramChoice = TrigramChoice(),
         connections: ChunkConnections? = nil, mapped: Bool? = nil) {
        self.trigrams = trigrams
        self.connections = connections
        let pending = chunks
            .filter { filter.mayHoldRecords(of: $0) }
            .sorted { ($0.sealed ? $0.oldestTimestamp ?? .min : .min, $0.sequence) < ($1.sealed ? $1.oldestTimestamp ?? .min : .min, $1.sequence) }
        self.pending = pending
        self.mapped = mapped ?? Self.mapsChunks(pending, filter: filter)
        self.filter = filter
        self.pathOf = pathOf
        remaining = filter.limit ?? .max
    }

    /// The reader whose row `nextRow()` handed out last: it moves on at the next call.
    private(set) var handedOut: ChunkReader?

    /// The next record, or nil at the end. Errors name the chunk file concerned.
    public func next() throws -> LogRecord? {
        try nextRow()?.record()
    }

    /// The next row, or nil at the end; the row is valid until the next call. Errors name the
    /// chunk file concerned.
    public func nextRow() throws -> StoredRow? {
        if let reader = handedOut {
            handedOut = nil
            try reader.advance()
            if !reader.hasRow { active.removeAll { $0 === reader } }
        }
        guard remaining > 0 else { return nil }
        while let chunk = pending.first, active.isEmpty || openingTime(of: chunk) <= earliestActive()!.timestamp {
            pending.removeFirst()
            if let reader = try ChunkReader(chunk: chunk, path: pathOf(chunk.file), filter: filter, trigrams: trigrams,
                                            mapped: mapped, connections: connections),
               reader.hasRow {
                active.append(reader)
            }
        }
        guard let index = earliestActiveIndex() else { return nil }
        let reader = active[index]
        handedOut = reader
        remaining -= 1
        return StoredRow(reader: reader)
    }

    /// The cursor's chunks as parts that can be read apart (on other threads), each in time
    /// order, when reading them one after the other gives this cursor's order: every chunk
    /// sealed, their time ranges apart and in write order, no limit, nothing read yet; and more
    /// than one task. Nil otherwise.
    ///
    /// A scan reads each chunk in slices of about `recordsPerSlice` records. A filter with SQL
    /// (whose selectivity is unknown) cuts the window into tasks of equal estimated records
    /// (`balancedSlices`), about `recordsPerSlice` each and at least `2 × threads`, so that a
    /// narrow window inside one or two chunks keeps every thread busy to the end and no task's
    /// output is more than a slice's; a task that crosses from one
    /// chunk to the next is two parts with the same `task`, read by one thread one after the
    /// other. Search-index lookups are one part per chunk. Every other part is a task of its own.
    public func disjointParts(threads: Int = 2) -> [RecordCursorPart]? {
        guard filter.limit == nil, active.isEmpty, handedOut == nil, !pending.isEmpty,
              pending.allSatisfy(\.sealed) else { return nil }
        // Indices, not `zip(pending, pending.dropFirst())`: making `Zip2Sequence`'s metadata at
        // run time cost 0.15 ms of every `diag show` (a look-up through every conformance record).
        for index in pending.indices.dropLast() {
            let earlier = pending[index], later = pending[index + 1]
            guard earlier.sequence < later.sequence,
                  let newest = earlier.newestTimestamp, let oldest = later.oldestTimestamp, newest < oldest
            else { return nil }
        }
        var parts: [RecordCursorPart] = []
        if filter.whereSQL != nil, filter.messageSearch.isEmpty {
            // Tasks of about `recordsPerSlice` records, at least `2 × threads`: a task's output
            // waits whole until the writer reaches it, so a task per chunk (the rule before) held
            // a whole chunk's NDJSON per thread (332 MB on 2M records with a `!=` predicate).
            let estimate = pending.reduce(0) { $0 + Self.estimatedRecords(of: $1, in: filter) }
            let tasks = max(2 * threads, Int((estimate / Double(Self.recordsPerSlice)).rounded(.up)))
            for (chunk, slice, task) in Self.balancedSlices(of: pending, filter: filter, tasks: tasks) {
                parts.append(RecordCursorPart(chunks: [chunk], paths: [pathOf(chunk.file)], filter: slice, trigrams: trigrams, mapped: mapped, task: task))
            }
        } else {
            for chunk in pending {
                for slice in Self.slices(of: chunk, filter: filter) {
                    parts.append(RecordCursorPart(chunks: [chunk], paths: [pathOf(chunk.file)], filter: slice, trigrams: trigrams, mapped: mapped, task: parts.count))
                }
            }
        }
        guard parts.contains(where: { $0.task != parts[0].task }) else { return nil }
        pending = []
        return parts
    }

    /// Records of a chunk per part when a scan reads them all: parts this small let every thread
    /// work while the output is written in order, each part's output (a few MiB) held at most.
    public static let recordsPerSlice = 8_192

    /// The fewest records of a window worth a slice of their own when SQL selects among them.
    static let smallestSlice = 1_024

    /// `filter` over `chunk` cut into consecutive time slices of about `recordsPerSlice` records
    /// each, when the filter reads every record of its window (no SQL condition, no search
    /// index: a full scan); the filter as it is otherwise, where SQL picks few rows anyway.
    public static func slices(of chunk: ChunkInfo, filter: StoreFilter) -> [StoreFilter] {
        guard filter.whereSQL == nil, filter.messageSearch.isEmpty else { return [filter] }
        let estimate = estimatedRecords(of: chunk, in: filter)
        return slices(of: chunk, filter: filter, count: Int((estimate / Double(recordsPerSlice)).rounded(.up)))
    }

    /// The part of `chunk`'s time range inside `filter`'s window cut into `count` consecutive
    /// time slices of equal length. Slices are half-open, the first open below and the last
    /// open above, so reading them in order gives the chunk's order (timestamp, then id).
    /// `[filter]` when there is nothing to cut (one slice, an unknown or extreme range).
    public static func slices(of chunk: ChunkInfo, filter: StoreFilter, count: Int) -> [StoreFilter] {
        guard count > 1 else { return [filter] }
        let cuts = (1..<count).map { Double($0) / Double(count) }
        return slices(of: chunk, filter: filter, at: cuts).map(\.filter)
    }

    /// The part of `chunk`'s time range inside `filter`'s window cut at the fractions `cuts` of
    /// its length (ascending, between 0 and 1), each slice with the index of the fraction range
    /// it covers (0 up to `cuts.count`); empty slices are left out. `[(filter, 0)]` when the
    /// range is unknown or extreme.
    static func slices(of chunk: ChunkInfo, filter: StoreFilter, at cuts: [Double]) -> [(filter: StoreFilter, index: Int)] {
        guard !cuts.isEmpty, let oldest = chunk.oldestTimestamp, let newest = chunk.newestTimestamp, newest < .max else { return [(filter, 0)] }
        let low = max(oldest, filter.start ?? .min)
        let high = min(newest + 1, filter.end ?? .max)
        let (span, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, span > 1 else { return [(filter, 0)] }
        var slices: [(filter: StoreFilter, index: Int)] = []
        for index in 0...cuts.count {
            let from = index == 0 ? Int64.min : low + Int64(Double(span) * cuts[index - 1])
            let to = index == cuts.count ? Int64.max : low + Int64(Double(span) * cuts[index])
            var slice = filter
            slice.start = max(filter.start ?? .min, from)
            slice.end = min(filter.end ?? .max, to)
            if slice.start == .min { slice.start = nil }
            if slice.end == .max { slice.end = nil }
            if let start = slice.start, let end = slice.end, start >= end { continue }
            slices.append((slice, index))
        }
        return slices
    }

    /// `filter` over `chunks` (in time order) cut into `tasks` consecutive tasks of equal
    /// estimated records, fewer when a task would hold under `smallestSlice` records: each
    /// chunk's slices with the task each belongs to. A chunk's records are taken as spread
    /// evenly over its time range (`estimatedRecords`). Cutting the whole window, not each
    /// chunk by its share, keeps the tasks equal when a chunk holds a small end of the window:
    /// a one-minute window with 6 s in one chunk was 1 + 4 slices, and one thread read three.
    static func balancedSlices(of chunks: [ChunkInfo], filter: StoreFilter, tasks: Int) -> [(chunk: ChunkInfo, filter: StoreFilter, task: Int)] {
        let estimates = chunks.map { estimatedRecords(of: $0, in: filter) }
        let total = estimates.reduce(0, +)
        // Tasks of fewer records than this cost more to start than they save.
        let count = max(1, min(tasks, Int(total) / smallestSlice))
        let size = total / Double(count)
        var result: [(chunk: ChunkInfo, filter: StoreFilter, task: Int)] = []
        var before = 0.0
        for index in chunks.indices {
            let chunk = chunks[index], estimate = estimates[index]
            defer { before += estimate }
            guard count > 1, estimate > 0 else {
                result.append((chunk, filter, count > 1 ? min(count - 1, Int(before / size)) : 0))
                continue
            }
            // The task boundaries inside this chunk, as fractions of its part of the window.
            let firstTask = min(count - 1, Int(before / size))
            let cuts = (firstTask + 1..<count).map { (Double($0) * size - before) / estimate }.filter { $0 > 0 && $0 < 1 }
            for (slice, index) in Self.slices(of: chunk, filter: filter, at: cuts) {
                result.append((chunk, slice, min(count - 1, firstTask + index)))
            }
        }
        return result
    }

    /// At most this many bytes of chunk files (estimated) in a query's window let its chunks be
    /// read through a memory map (`mapsChunks`). The estimate counts the whole file's share of
    /// the window, indexes, block sets and search index included, which a window's read does
    /// not touch: through diagd at 10M records, a one-minute window estimated at 37.8 MiB
    /// mapped 21 MB (peak RSS 28 → 49 MB), so 48 MiB keeps a query under its 64 MiB target.
    public static let mappedBytesLimit: Int64 = 48 << 20

    /// Whether reading `chunks` for `filter` maps the sealed files instead of copying each page
    /// with `pread` into SQLite's page cache: only for narrow windows, whose sealed chunks' bytes
    /// in the window (estimated from each chunk's size and time range) are at most
    /// `mappedBytesLimit`, because every mapped page read stays in the process's RSS until the
    /// connection closes. A narrow window reads thousands of pages scattered among other
    /// processes' rows; mapped, that is a few page faults instead of a system call and a copy
    /// per page (a one-minute window of 10 million records: 35 ms → 27 ms).
    ///
    /// A chunk still written is read through `pread` (`ChunkReader` maps sealed chunks only) and
    /// counts for nothing here: a live store's open chunk, whose time range reaches the present,
    /// is in every window's chunks, and it kept every other chunk from being mapped (through
    /// diagd at 10M records, a one-minute window took 65.1 ms instead of 47.8 ms).
    static func mapsChunks(_ chunks: [ChunkInfo], filter: StoreFilter) -> Bool {
        var bytes = 0.0
        for chunk in chunks where chunk.sealed {
            guard chunk.recordCount > 0 else { return false }
            bytes += Double(chunk.byteCount) * estimatedRecords(of: chunk, in: filter) / Double(chunk.recordCount)
        }
        return bytes <= Double(mappedBytesLimit)
    }

    /// How many of `chunk`'s records fall in `filter`'s time window, supposing them spread
    /// evenly over the chunk's range.
    static func estimatedRecords(of chunk: ChunkInfo, in filter: StoreFilter) -> Double {
        let count = Double(max(0, chunk.recordCount))
        guard let oldest = chunk.oldestTimestamp, let newest = chunk.newestTimestamp, newest > oldest else { return count }
        let low = max(oldest, filter.start ?? .min)
        let high = min(newest, filter.end ?? .max)
        guard high > low else { return high == low ? 1 : 0 }
        return count * min(1, (Double(high) - Double(low)) / (Double(newest) - Double(oldest)))
    }

    /// Every remaining record, for small results and tests.
    public func all() throws -> [LogRecord] {
        var records: [LogRecord] = []
        while let record = try next() { records.append(record) }
        return records
    }

    private func openingTime(of chunk: ChunkInfo) -> Int64 {
        chunk.sealed ? chunk.oldestTimestamp ?? .min : .min
    }

    private func earliestActive() -> ChunkReader? {
        earliestActiveIndex().map { active[$0] }
    }

    private func earliestActiveIndex() -> Int? {
        guard !active.isEmpty else { return nil }
        var best = 0
        for index in active.indices.dropFirst() {
            let candidate = active[index]
            let current = active[best]
            if (candidate.timestamp, candidate.chunk.sequence, candidate.id) < (current.timestamp, current.chunk.sequence, current.id) {
                best = index
            }
        }
        return best
    }
}

@available(*, unavailable)
extension RecordCursor: Sendable {}

/// One part of a `RecordCursor` split by `disjointParts()` or `overlappingParts(threads:)`: a
/// time slice of one chunk, or of several chunks that overlap in it, opened as a cursor of its
/// own (which merges those chunks by time), on any thread.
public struct RecordCursorPart: Sendable {
    let chunks: [ChunkInfo]
    /// The file of each of `chunks`, in the same order.
    let paths: [String]
    let filter: StoreFilter
    let trigrams: TrigramChoice
    let mapped: Bool
    /// Consecutive parts with the same task are read by one thread, one after the other.
    public let task: Int

    /// The first chunk (the only one of a `disjointParts()` part).
    var chunk: ChunkInfo { chunks[0] }
    /// How many chunks the part reads.
    public var chunkCount: Int { chunks.count }

    /// The part's records, in time order; errors name the chunk file. `connections` (one
    /// thread's) keeps the chunks open for that thread's next part.
    public func open(connections: ChunkConnections? = nil) -> RecordCursor {
        let paths = Dictionary(zip(chunks.map(\.file), self.paths), uniquingKeysWith: { first, _ in first })
        return RecordCursor(chunks: chunks, filter: filter, pathOf: { paths[$0] ?? $0 }, trigrams: trigrams,
                            connections: connections, mapped: mapped)
    }
}
