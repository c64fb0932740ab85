import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// The search looks a needle up by its rarest trigrams in each chunk: the estimate must rank a
/// rare word's trigrams before common ones, and the narrowed lookup must lose no record.
@Suite struct TrigramRarityTests {
    /// One indexed chunk: every message shares "connection reset", a few hold "zqxjv".
    private func store(_ folder: TemporaryDirectory) throws -> (LogStore, [LogRecord]) {
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        let records = (0..<20_000).map { index in
            let rare = index % 5_000 == 7 ? " zqxjv" : ""
            return LogRecord(timestamp: StoreTestRecords.base + Int64(index), eventMessage: "connection reset by peer\(rare) #\(index)")
        }
        try store.append(records)
        try store.rotate()
        #expect(try store.buildSearchIndexes() == 1)
        return (store, records)
    }

    @Test func rareTrigramsRankBeforeCommonOnes() throws {
        let folder = try TemporaryDirectory()
        let (store, _) = try store(folder)
        let path = store.chunkPath(store.info.chunks[0].file)
        let database = try Database.openForReading(path: path)
        let rarity = try #require(TrigramRarity(database: database))
        #expect(try rarity.rows("con") == Int64(TrigramRarity.probeLimit))
        #expect(try rarity.rows("zqx") == 4)
        #expect(try rarity.rows("q\"x") == 0)
        #expect(rarity.rarest(["con", "onn", "nne", "zqx", "qxj", "xjv", "res"]) == ["zqx", "qxj", "xjv"])
        #expect(rarity.rarest(["con", "onn", "zqx", "#19", "ees"]) == ["ees"])
        // Few trigrams are kept as they are.
        #expect(rarity.rarest(["con", "onn"]) == ["con", "onn"])
    }

    @Test func narrowedLookupKeepsEveryMatch() throws {
        let folder = try TemporaryDirectory()
        let (store, all) = try store(folder)
        for needle in ["peer zqxjv #7", "connection reset by peer", "reset by peer zqxjv", "zqxjv", "by peer #19"] {
            let found = try store.records(filter: StoreFilter(messageSearch: [needle])).all()
            let expected = all.filter { $0.eventMessage.contains(needle) }
            #expect(!expected.isEmpty)
            #expect(Set(expected).isSubset(of: Set(found)), "\(needle)")
            #expect(try store.count(filter: StoreFilter(messageSearch: [needle])) == Int64(found.count))
        }
        #expect(try store.records(filter: StoreFilter(messageSearch: ["zqxjv"])).all().count == 4)
    }

    @Test func unreadableIndexFallsBackToEveryTrigram() throws {
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("plain.sqlite").path)
        // No search index: no probe, and the caller looks up every trigram.
        #expect(TrigramRarity(database: database) == nil)
        #expect(MessageSearch.matchExpression(needles: ["abcd"], choose: { _ in [] }) == nil)
        #expect(MessageSearch.matchExpression(needles: ["abcd"]) == "\"abc\" AND \"bcd\"")
    }
}
