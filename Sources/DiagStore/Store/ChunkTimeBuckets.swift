/// Which parts of a sealed chunk's time range hold records: the range cut into `count` equal
/// buckets, a bit each. A read of a time window skips a chunk whose buckets under the window are
/// all empty, without opening it. `oldestTimestamp…newestTimestamp` alone keeps every chunk a
/// few stray records stretch: diagd's own records carry the time they were written, days after
/// the generated records a benchmark sends, so the first chunk of diagd's store of 10M records
/// spans 7,915 minutes, and every one-minute window opened it (and each of its time slices
/// looked it up) for no record.
///
/// Kept in `Info.json` (`ChunkInfo.timeBuckets`) as `[start, width, word0, word1, word2, word3]`:
/// bucket `i` covers `start + i·width ..< start + (i+1)·width`, and is bit `i % 64` of word
/// `i / 64` (the words as signed 64-bit integers, JSON's exact range being Int64's here).
/// Measured when the chunk is sealed (`ChunkSealer.measure`), from the chunk's timestamp index.
/// A sealed chunk only ever loses rows (expiry, `diag erase`), so buckets measured once stay
/// true of it: they may say a bucket holds records it no longer does, never the reverse.
///
/// Like the chunk's `oldestTimestamp` and `newestTimestamp`, the buckets decide which chunks a
/// read opens: a stranger's `Info.json` that clears a bucket hides that bucket's records, as one
/// that narrows a chunk's range already would (the bundle's maker controls its rows anyway).
/// Values of the wrong shape are ignored (`init(stored:)`), and the chunk is read as before.
struct ChunkTimeBuckets: Equatable {
    static let count = 256
    static let wordCount = count / 64

    /// As `Info.json` keeps them: `[start, width, word0, word1, word2, word3]`. Kept as they
    /// are, not copied: a read looks at every chunk's buckets once for each of its time slices.
    let stored: [Int64]
    var start: Int64 { stored[0] }
    var width: Int64 { stored[1] }
    /// The bit of bucket `index`.
    func holds(_ index: Int) -> Bool { UInt64(bitPattern: stored[2 + index / 64]) & (1 << UInt64(index % 64)) != 0 }

    /// The buckets of `Info.json`'s entry: nil unless exactly `[start, width, 4 words]` with a
    /// width of at least 1 and `start + count·width` within Int64.
    init?(stored: [Int64]) {
        guard stored.count == 2 + Self.wordCount, stored[1] >= 1, Self.end(start: stored[0], width: stored[1]) != nil else { return nil }
        self.stored = stored
    }

    /// `start + count·width`, nil past Int64.
    private static func end(start: Int64, width: Int64) -> Int64? {
        let (span, overflow) = width.multipliedReportingOverflow(by: Int64(count))
        guard !overflow else { return nil }
        let (end, past) = start.addingReportingOverflow(span)
        return past ? nil : end
    }

    /// The buckets of the sealed chunk open in `database`, whose times lie in `oldest...newest`:
    /// one look-up in its timestamp index per bucket that holds records (256 at most, about a
    /// millisecond for a chunk of 200,000 records). Nil when the range is too wide to cut (an
    /// overflow) or a look-up fails.
    init?(database: Database, oldest: Int64, newest: Int64) {
        guard newest >= oldest else { return nil }
        let (span, overflow) = newest.subtractingReportingOverflow(oldest)
        guard !overflow else { return nil }
        let width = span / Int64(Self.count) + 1
        guard Self.end(start: oldest, width: width) != nil else { return nil }
        var words = [UInt64](repeating: 0, count: Self.wordCount)
        do {
            let next = try database.prepare(
                "SELECT timestamp FROM records INDEXED BY \(StoreLayout.timestampIndex) WHERE timestamp >= ? ORDER BY timestamp LIMIT 1")
            var from = oldest
            while true {
                try next.bind([from])
                defer { next.reset() }
                guard try next.step() else { break }
                let time = next.int64(at: 0)
                guard time >= oldest, time <= newest else { return nil }
                let bucket = Int((time - oldest) / width)
                words[bucket / 64] |= 1 << UInt64(bucket % 64)
                guard bucket + 1 < Self.count else { break }
                from = oldest + Int64(bucket + 1) * width
            }
        } catch {
            return nil
        }
        stored = [oldest, width] + words.map { Int64(bitPattern: $0) }
    }

    /// `init(database:oldest:newest:)` as `Info.json` keeps it, for a chunk with a known range.
    static func measure(_ database: Database, oldest: Int64?, newest: Int64?) -> [Int64]? {
        guard let oldest, let newest else { return nil }
        return ChunkTimeBuckets(database: database, oldest: oldest, newest: newest)?.stored
    }

    /// The end of the last bucket (exclusive).
    var end: Int64 { start + width * Int64(Self.count) }

    /// Whether the buckets cover `oldest...newest`, a chunk's range: only then do they say
    /// where its records are.
    func cover(oldest: Int64, newest: Int64) -> Bool { oldest >= start && newest < end }

    /// Whether a bucket holding records meets the window from `from` (inclusive) to `to`
    /// (exclusive; nil: no bound). For a chunk whose range the buckets cover.
    func mayHold(from: Int64?, to: Int64?) -> Bool {
        let low = max(from ?? .min, start)
        let high = min(to ?? .max, end)
        guard low < high else { return false }
        let first = Int((low - start) / width)
        let last = Int((high - 1 - start) / width)
        for bucket in first...last where holds(bucket) { return true }
        return false
    }
}

extension StoreFilter {
    /// Whether `chunk` may hold a record this filter wants, from its `Info.json` entry alone.
    /// Where its range is final (`rangeIsFinal`: a sealed chunk, or a closed one whose writer
    /// listed its last records, `LogStore.chunksToRead`), a chunk with records whose range meets
    /// the window; a sealed one also needs one of its time buckets under the window to hold
    /// records, where they were measured. A chunk still written to may hold anything.
    func mayHoldRecords(of chunk: ChunkInfo, rangeIsFinal: Bool? = nil) -> Bool {
        guard rangeIsFinal ?? chunk.sealed else { return true }
        guard chunk.recordCount > 0, overlaps(oldest: chunk.oldestTimestamp, newest: chunk.newestTimestamp) else { return false }
        guard chunk.sealed, start != nil || end != nil, let stored = chunk.timeBuckets, let buckets = ChunkTimeBuckets(stored: stored),
              let oldest = chunk.oldestTimestamp, let newest = chunk.newestTimestamp, buckets.cover(oldest: oldest, newest: newest)
        else { return true }
        return buckets.mayHold(from: start, to: end)
    }
}
