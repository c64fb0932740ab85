import DiagModel
import Foundation

/// Which records a read wants. Every part narrows the result; the empty filter takes everything.
public struct StoreFilter: Sendable, Hashable {
    /// Records at or after this time (ns since the epoch), inclusive.
    public var start: Int64?
    /// Records before this time (ns since the epoch), exclusive.
    public var end: Int64?
    /// A boolean SQL expression over the columns of `records` (docs/STORE.md), with plain `?`
    /// placeholders for `bindings`, in order. It comes from the predicate planner; user text
    /// is always bound, never pasted.
    public var whereSQL: String?
    public var bindings: [SQLValue]
    /// Needles that `eventMessage` must contain, each already folded with
    /// `TextFolding.fold(_:caseInsensitive: true, diacriticInsensitive: true)` (folded again here
    /// in case). They skip records that cannot match: through the trigram index where a chunk
    /// has one and the needle has 3 characters or more, else by an SQL scan exact for ASCII
    /// messages that keeps every non-ASCII one. The result is a superset: the caller checks
    /// the exact condition.
    public var messageSearch: [String]
    /// At most this many records (the first in timestamp order).
    public var limit: Int?
    /// Only records whose id is above this one, in the chunk read: set per chunk by its reader
    /// (`narrowed(for:)`, through `ChunkCondition`), not by callers.
    var afterID: Int64?

    public init(start: Int64? = nil, end: Int64? = nil, whereSQL: String? = nil, bindings: [SQLValue] = [],
                messageSearch: [String] = [], limit: Int? = nil) {
        self.start = start
        self.end = end
        self.whereSQL = whereSQL
        self.bindings = bindings
        self.messageSearch = messageSearch
        self.limit = limit
    }

    /// This filter for the records of a chunk not sealed yet that can be in its window when the
    /// chunk's listed range (`Info.json`) misses it: those past the listed count. When the chunk
    /// was listed, its records up to id `recordCount` were all there (SQLite gives a new row the
    /// largest id plus one, and the largest id is at least the count), inside that range; a chunk
    /// still written (diagd's open chunk) gets later records, of any time, past that id. Through
    /// diagd at 10M records, a one-minute window read the whole of the open chunk's block sets
    /// (180 to 230 page reads; now 5) to find none of its records there.
    func narrowed(for chunk: ChunkInfo) -> StoreFilter {
        guard !chunk.sealed, chunk.recordCount > 0, let oldest = chunk.oldestTimestamp, let newest = chunk.newestTimestamp,
              !overlaps(oldest: oldest, newest: newest) else { return self }
        var narrowed = self
        narrowed.afterID = max(afterID ?? 0, chunk.recordCount)
        return narrowed
    }

    /// True when a chunk holding times `oldest...newest` can have a matching record.
    func overlaps(oldest: Int64?, newest: Int64?) -> Bool {
        guard let oldest, let newest else { return true }
        if let start, newest < start { return false }
        if let end, oldest >= end { return false }
        return true
    }
}

/// The `WHERE` clause of a filter for one chunk, and its values in placeholder order.
struct ChunkCondition {
    var sql: String
    var bindings: [SQLValueConvertible?]
    /// Whether the rows are picked by id (`id IN (…)`: the search index's, the block sets' or the
    /// record masks' candidates), which SQLite then reads in id order.
    var selectsByID = false

    /// The condition a read builds for `chunk` at `path`, open as `database`, which holds
    /// `tables`: its search index and its block sets used as `trigrams` decides for the read, and
    /// only its records past the listed ones when its listed range misses the window
    /// (`StoreFilter.narrowed`).
    init(filter: StoreFilter, chunk: ChunkInfo, tables: ChunkTables, database: Database, path: String, trigrams: TrigramChoice) {
        let filter = filter.narrowed(for: chunk)
        self.init(filter: filter, searchIndex: tables.hasSearchIndex,
                  blocks: BlockQuery(filter: filter, tables: tables).map { ($0, { trigrams.blockPlan($0, path: path, in: database) }) },
                  choose: { trigrams.choose($0, in: database) })
    }

    /// `choose` picks which trigrams of the needles the chunk's index looks up (the few rarest).
    /// `blocks`: the chunk's block query (`BlockQuery`, from its tables) and how the read uses
    /// the blocks (`BlockPlan`); the blocks or the ids they leave then narrow the rows read.
    init(filter: StoreFilter, searchIndex: Bool, blocks: (query: BlockQuery, plan: (BlockQuery) -> BlockPlan)? = nil,
         choose: ([String]) -> [String] = { $0 }) {
        var clauses: [String] = []
        var values: [SQLValueConvertible?] = []
        if let start = filter.start {
            clauses.append("timestamp >= ?")
            values.append(start)
        }
        if let end = filter.end {
            clauses.append("timestamp < ?")
            values.append(end)
        }
        if let afterID = filter.afterID {
            clauses.append("id > ?")
            values.append(afterID)
        }
        if let whereSQL = filter.whereSQL, whereSQL.contains(where: { !$0.isWhitespace }) {
            clauses.append("(\(whereSQL))")
            values.append(contentsOf: filter.bindings.map { $0 as SQLValueConvertible })
        }
        let folded = filter.messageSearch.map(MessageSearchIndex.fold).filter { !$0.isEmpty }
        let indexed = searchIndex ? folded.filter(MessageSearch.usesIndex) : []
        if let match = MessageSearch.matchExpression(needles: indexed, choose: choose) {
            clauses.append("id IN (SELECT rowid FROM \(ChunkSchema.searchTable) WHERE \(ChunkSchema.searchTable) MATCH ?)")
            values.append(match)
            selectsByID = true
        }
        switch blocks.map({ $0.plan($0.query) }) {
        case .blocks?:
            clauses.append(MessageBlocks.candidateCondition(blocks!.query))
            values.append(contentsOf: blocks!.query.bindings)
            selectsByID = true
        case .ids(let ids)?:
            clauses.append("id IN (SELECT value FROM json_each(?))")
            values.append(ids)
            selectsByID = true
        case .scan?, nil:
            break
        }
        // A needle with U+FFFD may match where a message's bytes are not UTF-8 (read as U+FFFD),
        // which `length()` can count as ASCII: no prefilter for it, the caller decides each record.
        for needle in folded where !indexed.contains(needle) && !needle.unicodeScalars.contains("\u{FFFD}") {
            clauses.append(MessageSearch.scanCondition)
            values.append(contentsOf: MessageSearch.scanBindings(needle: needle))
        }
        sql = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
        bindings = values
    }
}
