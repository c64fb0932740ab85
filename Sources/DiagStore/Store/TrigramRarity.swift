import Foundation

/// How common each trigram is in one chunk's search index, so that a needle is looked up by its
/// few rarest trigrams rather than all of them (every trigram's doclist read and intersected).
///
/// A probe reads a trigram's doclist only up to `probeLimit` rows (FTS5 reads doclists page by
/// page, so a common trigram costs a page or two per segment, not its whole list). Only the
/// choice of trigrams depends on it: any subset of a needle's trigrams keeps a superset of its
/// records, so a poor choice costs time, never a record.
struct TrigramRarity {
    /// Trigrams looked up per search: past the rarest few, each one more reads more pages
    /// than it saves in candidates.
    static let keptTrigrams = 3
    /// Rows probed per trigram: enough to tell a rare trigram (a few hundred rows in a chunk
    /// of 250k) from a common one.
    static let probeLimit = 1_000

    private let statement: Statement

    /// Nil when the chunk has no search index: the caller then looks up every trigram.
    init?(database: Database) {
        do {
            statement = try database.prepare("""
                SELECT count(*) FROM (SELECT rowid FROM \(ChunkSchema.searchTable)
                WHERE \(ChunkSchema.searchTable) MATCH ? LIMIT \(Self.probeLimit))
                """)
        } catch {
            return nil
        }
    }

    /// How many rows hold `trigram`, counted up to `probeLimit`.
    func rows(_ trigram: String) throws -> Int64 {
        statement.reset()
        try statement.bind(["\"" + trigram.replacingOccurrences(of: "\"", with: "\"\"") + "\""])
        return try statement.step() ? statement.int64(at: 0) : 0
    }

    /// The `keptTrigrams` rarest of `trigrams` (ties: the earlier), in their original order;
    /// all of them when the probe fails.
    func rarest(_ trigrams: [String]) -> [String] {
        guard trigrams.count > Self.keptTrigrams else { return trigrams }
        do {
            let counts = try trigrams.map(rows)
            if let absent = counts.firstIndex(of: 0) { return [trigrams[absent]] }
            let chosen = Set(trigrams.indices.sorted { (counts[$0], $0) < (counts[$1], $1) }.prefix(Self.keptTrigrams))
            return trigrams.indices.filter(chosen.contains).map { trigrams[$0] }
        } catch {
            return trigrams
        }
    }
}

@available(*, unavailable)
extension TrigramRarity: Sendable {}
