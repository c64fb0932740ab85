import DiagModel

/// Records of a store in timestamp order, merged across chunks that may overlap in time.
///
/// A chunk's query starts only once the merge reaches its oldest time, so a store of
/// non-overlapping chunks keeps one chunk open at a time, and memory stays flat. Ties in time
/// keep chunk order, then insertion order.
public final class RecordCursor {
    /// Chunks not opened yet, by oldest time (unknown first).
    private var pending: [ChunkInfo]
    private var active: [ChunkReader] = []
    private let filter: StoreFilter
    private let pathOf: (String) -> String
    private var remaining: Int
    /// The message search's trigrams, ranked in the first indexed chunk, for all of them.
    private let trigrams: TrigramChoice

    init(chunks: [ChunkInfo], filter: StoreFilter, pathOf: @escaping (String) -> String, trigrams: TrigramChoice = TrigramChoice()) {
        self.trigrams = trigrams
        pending = chunks
            .filter { !$0.sealed || ($0.recordCount > 0 && filter.overlaps(oldest: $0.oldestTimestamp, newest: $0.newestTimestamp)) }
            .sorted { ($0.sealed ? $0.oldestTimestamp ?? .min : .min, $0.sequence) < ($1.sealed ? $1.oldestTimestamp ?? .min : .min, $1.sequence) }
        self.filter = filter
        self.pathOf = pathOf
        remaining = filter.limit ?? .max
    }

    /// The reader whose row `nextRow()` handed out last: it moves on at the next call.
    private var handedOut: ChunkReader?

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
            if let reader = try ChunkReader(chunk: chunk, path: pathOf(chunk.file), filter: filter, trigrams: trigrams), reader.hasRow {
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
    /// sealed, their time ranges apart and in write order, no limit, nothing read yet. Nil
    /// otherwise.
    public func disjointParts() -> [RecordCursorPart]? {
        guard filter.limit == nil, active.isEmpty, handedOut == nil, pending.count > 1 else { return nil }
        for (earlier, later) in zip(pending, pending.dropFirst()) {
            guard earlier.sealed, later.sealed, earlier.sequence < later.sequence,
                  let newest = earlier.newestTimestamp, let oldest = later.oldestTimestamp, newest < oldest
            else { return nil }
        }
        let parts = pending.flatMap { chunk in
            Self.slices(of: chunk, filter: filter).map {
                RecordCursorPart(chunk: chunk, path: pathOf(chunk.file), filter: $0, trigrams: trigrams)
            }
        }
        pending = []
        return parts
    }

    /// Records of a chunk per part when a scan reads them all: parts this small let every thread
    /// work while the output is written in order, each part's output (a few MiB) held at most.
    public static let recordsPerSlice = 8_192

    /// `filter` over `chunk` cut into consecutive time slices of about `recordsPerSlice` records
    /// each, when the filter reads every record of its window (no SQL condition, no search
    /// index: a full scan); the filter as it is otherwise, where SQL picks few rows anyway.
    /// Slices are half-open and cover the chunk's whole range, so reading them in order gives
    /// the chunk's order (timestamp, then id).
    public static func slices(of chunk: ChunkInfo, filter: StoreFilter) -> [StoreFilter] {
        guard filter.whereSQL == nil, filter.messageSearch.isEmpty, chunk.recordCount > Int64(recordsPerSlice),
              let oldest = chunk.oldestTimestamp, let newest = chunk.newestTimestamp, newest < .max
        else { return [filter] }
        let (span, overflow) = (newest + 1).subtractingReportingOverflow(oldest)
        guard !overflow, span > 1 else { return [filter] }
        let count = Int((chunk.recordCount + Int64(recordsPerSlice) - 1) / Int64(recordsPerSlice))
        var slices: [StoreFilter] = []
        for index in 0..<count {
            let from = index == 0 ? Int64.min : oldest + Int64(Double(span) * Double(index) / Double(count))
            let to = index == count - 1 ? Int64.max : oldest + Int64(Double(span) * Double(index + 1) / Double(count))
            var slice = filter
            slice.start = max(filter.start ?? .min, from)
            slice.end = min(filter.end ?? .max, to)
            if slice.start == .min { slice.start = nil }
            if slice.end == .max { slice.end = nil }
            if let start = slice.start, let end = slice.end, start >= end { continue }
            slices.append(slice)
        }
        return slices
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

/// One chunk of a `RecordCursor` split by `disjointParts()`: opened as a cursor of its own, on
/// any thread.
public struct RecordCursorPart: Sendable {
    let chunk: ChunkInfo
    let path: String
    let filter: StoreFilter
    let trigrams: TrigramChoice

    /// The part's records, in time order; errors name the chunk file.
    public func open() -> RecordCursor {
        let path = self.path
        return RecordCursor(chunks: [chunk], filter: filter, pathOf: { _ in path }, trigrams: trigrams)
    }
}
