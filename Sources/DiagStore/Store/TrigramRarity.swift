import Foundation
import Synchronization

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
        guard trigrams.count > Self.keptTrigrams, let ranking = try? ranking(trigrams) else { return trigrams }
        return Self.kept(of: trigrams, ranking: ranking.order, absent: ranking.absent)
    }

    /// `trigrams` rarest first, and whether the first is absent from this chunk.
    func ranking(_ trigrams: [String]) throws -> (order: [String], absent: Bool) {
        let counts = try trigrams.map(rows)
        let order = trigrams.indices.sorted { (counts[$0], $0) < (counts[$1], $1) }
        return (order.map { trigrams[$0] }, order.first.map { counts[$0] == 0 } ?? false)
    }

    /// The first `keptTrigrams` of `ranking`, in the order of `trigrams`; the first alone when
    /// it is absent (nothing in the chunk can match).
    static func kept(of trigrams: [String], ranking: [String], absent: Bool) -> [String] {
        let chosen = Set(ranking.prefix(absent ? 1 : keptTrigrams))
        return trigrams.filter(chosen.contains)
    }
}

/// The rarest-first order of one read's trigrams, probed in the first indexed chunk the read
/// opens and reused for the next ones: the chunks of a store share a vocabulary, and probing
/// every trigram in every chunk reads a page per trigram and segment (at 10M records, 43 chunks
/// of 23 probes). A chunk where the order is wrong costs time, never a record. Chunks read on
/// several threads share one: the first probe happens under the lock.
///
/// It also keeps, per chunk, whether the read uses the chunk's block sets (`MessageBlocks`), so
/// that a chunk read in several parts whose sets do not narrow it is probed once.
final class TrigramChoice: Sendable {
    private let ranking = Mutex<[String]?>(nil)
    private struct BlockKey: Hashable {
        var path: String
        var query: BlockQuery
    }
    private let blockDecisions = Mutex<[BlockKey: Bool]>([:])

    init() {}

    /// How the read uses the chunk's blocks for `query` (`MessageBlocks.plan`). Decided once
    /// per chunk and read whether the blocks are used; the ids a plan binds are not kept (a
    /// chunk's reader asks once, and a quarter of a chunk's ids for every chunk of a read
    /// would be kept to its end).
    func blockPlan(_ query: BlockQuery, path: String, in database: Database) -> BlockPlan {
        let key = BlockKey(path: path, query: query)
        if blockDecisions.withLock({ $0[key] }) == false { return .scan }
        let plan = MessageBlocks.plan(query, in: database)
        blockDecisions.withLock { $0[key] = plan != .scan }
        return plan
    }

    func choose(_ trigrams: [String], in database: Database) -> [String] {
        guard trigrams.count > TrigramRarity.keptTrigrams else { return trigrams }
        return ranking.withLock { ranking in
            if let known = ranking, Set(known) == Set(trigrams) {
                return TrigramRarity.kept(of: trigrams, ranking: known, absent: false)
            }
            guard let rarity = TrigramRarity(database: database), let probed = try? rarity.ranking(trigrams) else { return trigrams }
            ranking = probed.order
            return TrigramRarity.kept(of: trigrams, ranking: probed.order, absent: probed.absent)
        }
    }
}

@available(*, unavailable)
extension TrigramRarity: Sendable {}
