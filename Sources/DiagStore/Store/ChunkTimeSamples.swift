import Foundation

/// How a sealed chunk's records spread over its time range, from the times of rows at evenly
/// spaced ids: diagd and `diag import` write records about in time order, so these are the
/// chunk's time quantiles, read with a few dozen rowid lookups. `RecordCursor.overlappingParts`
/// cuts time slices of equal records with them: a chunk's `oldestTimestamp…newestTimestamp`
/// alone says little where one late record stretches it (diagd's own records carry the time
/// they were written, days after the generated records a benchmark sends).
struct ChunkTimeSamples {
    /// Sorted times, each standing for an equal share of the chunk's records between it and
    /// the next.
    let times: [Int64]

    /// Gaps between samples: 65 rows looked up per chunk, each gap about a 64th of its records.
    /// Kept in every sealed chunk's `Info.json` entry (about 1,300 of its 2,200 bytes there), which
    /// every command reads whole: 0.3 ms more for the 52 chunks of diagd's store of 10M records.
    /// With 16 gaps (0.06 ms) the slices of a one-minute window through that store came out less
    /// even, and the window took 0.4–0.6 ms longer than with 64 (medians of 150 and 300 runs,
    /// interleaved, 2026-12-04).
    static let count = 64

    /// The most samples taken from a chunk's `Info.json` entry (`ChunkInfo.timeSamples`); more
    /// (from a stranger's file) are ignored, and the file is sampled instead.
    static let maximumStored = 1_025

    /// Samples of a chunk: from its `Info.json` entry when they were measured at its seal
    /// (`ChunkSealer`), else looked up in its file; nil when neither gives any.
    static func of(_ chunk: ChunkInfo, path: String) -> ChunkTimeSamples? {
        if let stored = chunk.timeSamples, let samples = ChunkTimeSamples(stored: stored, of: chunk) { return samples }
        return ChunkTimeSamples(chunk: chunk, path: path)
    }

    /// Samples as `Info.json` keeps them: nil unless there are 2 to `maximumStored` of them,
    /// all within the chunk's time range where it is known (anything else is not a measure of
    /// this chunk, and sampling the file costs a few milliseconds, no more).
    init?(stored: [Int64], of chunk: ChunkInfo) {
        guard stored.count >= 2, stored.count <= Self.maximumStored else { return nil }
        if let oldest = chunk.oldestTimestamp, let newest = chunk.newestTimestamp {
            guard stored.allSatisfy({ $0 >= oldest && $0 <= newest }) else { return nil }
        }
        times = stored.sorted()
    }

    /// Nil when the chunk cannot be read or holds under two rows: the caller then supposes the
    /// records spread evenly over the chunk's range.
    init?(chunk: ChunkInfo, path: String) {
        guard let database = try? ChunkConnections.open(chunk: chunk, path: StoreLayout.openableChunkPath(path), mapping: 0) else { return nil }
        self.init(database: database)
    }

    /// The samples of the chunk open in `database` (the sealer's connection, or a reader's).
    init?(database: Database) {
        var times: [Int64] = []
        do {
            // Two subqueries: `min(id), max(id)` in one select scans a whole index (SQLite looks
            // a lone min or max up at the end of the B-tree only), 28 ms on a chunk of 200k rows,
            // half of a one-minute window's time through diagd.
            let bounds = try database.prepare("SELECT (SELECT min(id) FROM records), (SELECT max(id) FROM records)")
            guard try bounds.step() else { return nil }
            let (low, high) = (bounds.int64(at: 0), bounds.int64(at: 1))
            guard high > low else { return nil }
            let row = try database.prepare("SELECT timestamp FROM records WHERE id >= ? ORDER BY id LIMIT 1")
            for sample in 0...Self.count {
                let id = low + Int64(Double(high - low) * Double(sample) / Double(Self.count))
                row.reset()
                try row.bind(id, at: 1)
                if try row.step() { times.append(row.int64(at: 0)) }
            }
        } catch {
            return nil
        }
        guard times.count > 1 else { return nil }
        self.times = times.sorted()
    }

    /// The chunk's records as ranges of times, `count` records spread evenly in each, clipped
    /// to `filter`'s window (a range cut by it keeps its share of the records).
    func ranges(count: Double, filter: StoreFilter) -> [(low: Int64, high: Int64, count: Double)] {
        let share = count / Double(times.count - 1)
        var ranges: [(low: Int64, high: Int64, count: Double)] = []
        for (from, to) in zip(times, times.dropFirst()) {
            let high = to == .max ? to : to + 1
            let low = max(from, filter.start ?? .min), clipped = min(high, filter.end ?? .max)
            guard clipped > low else { continue }
            ranges.append((low, clipped, share * min(1, (Double(clipped) - Double(low)) / (Double(high) - Double(from)))))
        }
        return ranges
    }
}
