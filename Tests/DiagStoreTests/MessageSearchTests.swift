import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

@Suite struct MessageSearchTests {
    private static let messages = [
        "Café ÉCOLE straße opened", "connection reset by peer", "Ångström sync finished",
        "fetch \"quoted\" AND NOT *star*", "cafe ecole closed", "upload failed: timeout", "ok",
    ]

    /// A sealed, indexed chunk, then a sealed chunk without the index, then the open chunk.
    private func store(_ folder: TemporaryDirectory) throws -> (LogStore, [LogRecord]) {
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        var all: [LogRecord] = []
        for chunk in 0..<3 {
            let records = (0..<70).map { index in
                LogRecord(timestamp: StoreTestRecords.base + Int64(chunk * 100 + index), eventMessage: Self.messages[index % Self.messages.count] + " #\(index)")
            }
            try store.append(records)
            all += records
            if chunk == 0 { try store.rotate(); #expect(try store.buildSearchIndexes() == 1) }
            if chunk == 1 { try store.rotate() }
        }
        return (store, all)
    }

    @Test func indexedChunksReturnASupersetThatSkipsNonMatches() throws {
        let folder = try TemporaryDirectory()
        let (store, all) = try store(folder)
        #expect(store.info.chunks.map(\.searchIndex) == [true, false, false])
        for needle in ["CAFÉ ÉCOLE", "strasse", "angstrom sync", "reset by", "\"quoted\" and not *star*", "failed: time"] {
            let filter = StoreFilter(messageSearch: [MessageSearchIndex.fold(needle)])
            let found = try store.records(filter: filter).all()
            let expected = StoreTestRecords.containing(all, needle)
            #expect(Set(expected).isSubset(of: Set(found)), "\(needle)")
            // The indexed first chunk returns no record that lacks the needle's trigrams.
            let firstChunk = found.filter { $0.timestamp < StoreTestRecords.base + 100 }
            #expect(firstChunk == StoreTestRecords.containing(all, needle).filter { $0.timestamp < StoreTestRecords.base + 100 }, "\(needle)")
            // Unindexed chunks: the scan folds each message as the index does, so it is exact too.
            let scanned = all.filter { $0.timestamp >= StoreTestRecords.base + 100 }
            #expect(found.filter { $0.timestamp >= StoreTestRecords.base + 100 } == StoreTestRecords.containing(scanned, needle), "\(needle)")
        }
    }

    @Test func shortNeedlesAndNoMatchesBehave() throws {
        let folder = try TemporaryDirectory()
        let (store, all) = try store(folder)
        // Under three characters the index cannot serve: the scan finds them, folded, in every chunk.
        let short = try store.records(filter: StoreFilter(messageSearch: ["ok"])).all()
        #expect(short == StoreTestRecords.containing(all, "ok"))
        #expect(short.count == 30)
        #expect(try store.records(filter: StoreFilter(messageSearch: ["ng"])).all() == StoreTestRecords.containing(all, "ng"))
        let none = try store.records(filter: StoreFilter(messageSearch: ["zzzzqqq"])).all()
        #expect(none.isEmpty)
        // A NUL inside a message does not end the search (C string functions would stop there).
        let withNUL = try store.records(filter: StoreFilter(start: StoreTestRecords.base + 1_000, messageSearch: ["secret"])).all()
        #expect(withNUL.isEmpty)
        try store.append([LogRecord(timestamp: StoreTestRecords.base + 1_000, eventMessage: "abc\u{0}SECRET")])
        #expect(try store.records(filter: StoreFilter(start: StoreTestRecords.base + 1_000, messageSearch: ["secret"])).all().count == 1)
        // Several needles: all must be there.
        let both = try store.records(filter: StoreFilter(end: StoreTestRecords.base + 100, messageSearch: ["cafe", "opened"])).all()
        #expect(both.allSatisfy { $0.eventMessage.hasPrefix("Café ÉCOLE straße opened") })
        #expect(both.count == 10)
        #expect(try store.count(filter: StoreFilter(end: StoreTestRecords.base + 100, messageSearch: ["cafe", "opened"])) == 10)
        // A needle the caller did not fold is folded here: still a superset.
        #expect(try store.records(filter: StoreFilter(end: StoreTestRecords.base + 100, messageSearch: ["CAFÉ"])).all().count == 20)
    }

    /// A chunk from elsewhere may hold a message whose bytes are not UTF-8; read, they become
    /// U+FFFD, which SQLite's `length()` may count as ASCII (a lead byte without its continuation):
    /// a needle with U+FFFD is therefore not prefiltered, and the record is still found.
    @Test func aNeedleWithTheReplacementCharacterFindsMessagesThatAreNotUTF8() throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        try store.append([LogRecord(timestamp: StoreTestRecords.base, eventMessage: "placeholder"),
                          LogRecord(timestamp: StoreTestRecords.base + 1, eventMessage: "plain ascii")])
        let chunk = try #require(store.info.chunks.first)
        let database = try Database(path: store.chunkPath(chunk.file))
        // "bad" and a lone 0xC3: one character for one byte as `length()` counts.
        try database.execute("UPDATE records SET eventMessage = CAST(X'626164C3' AS TEXT) WHERE eventMessage = 'placeholder'")
        let found = try store.records(filter: StoreFilter(messageSearch: [MessageSearchIndex.fold("bad\u{FFFD}")])).all()
        #expect(found.map(\.timestamp).contains(StoreTestRecords.base))
        // An ASCII needle is still prefiltered exactly on ASCII messages.
        let ascii = try store.records(filter: StoreFilter(messageSearch: ["plain"])).all()
        #expect(ascii.map(\.timestamp) == [StoreTestRecords.base + 1])
    }

    @Test func theIndexIsAContentlessTrigramTableKeyedByRecordID() throws {
        let folder = try TemporaryDirectory()
        let (store, _) = try store(folder)
        let database = try Database(path: store.chunkPath(store.info.chunks[0].file), options: .init(readOnly: true))
        let sql = try database.scalarText("SELECT sql FROM sqlite_master WHERE name = 'message_search'") ?? ""
        #expect(sql.contains("trigram"))
        #expect(sql.contains("content=''"))
        // No docsize table: only ranking reads it.
        #expect(sql.contains("columnsize=0"))
        #expect(try database.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'message_search_docsize'") == 0)
        let ids = try strings(database, "SELECT rowid FROM message_search WHERE message_search MATCH '\"eco\" AND \"col\" AND \"ole\"' ORDER BY rowid")
        let expected = try strings(database, "SELECT id FROM records WHERE eventMessage LIKE '%cole%' ORDER BY id")
        #expect(ids == expected)
        #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
    }

    /// diagd's finisher indexes one chunk at a time (sealing what closed meanwhile in between):
    /// a limit of one indexes the oldest sealed chunk still without its index, and no other.
    @Test func aLimitIndexesTheOldestChunksFirst() throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        for chunk in 0..<3 {
            try store.append([LogRecord(timestamp: StoreTestRecords.base + Int64(chunk), eventMessage: "chunk \(chunk)")])
            try store.rotate()
        }
        #expect(store.info.chunks.map(\.searchIndex) == [false, false, false])
        #expect(try store.buildSearchIndexes(limit: 1) == 1)
        #expect(store.info.chunks.map(\.searchIndex) == [true, false, false])
        #expect(try store.buildSearchIndexes(limit: 0) == 0)
        #expect(try store.buildSearchIndexes() == 2)
        #expect(store.info.chunks.map(\.searchIndex) == [true, true, true])
    }

    @Test func buildingTwiceDoesNothingAndSealingThenIndexingCoversNewChunks() throws {
        let folder = try TemporaryDirectory()
        let (store, _) = try store(folder)
        #expect(try store.buildSearchIndexes() == 1)
        #expect(try store.buildSearchIndexes() == 0)
        try store.rotate()
        #expect(try store.buildSearchIndexes() == 1)
        #expect(store.info.chunks.allSatisfy { $0.searchIndex })
    }
}

@Suite struct MessageSearchAcrossProcessesTests {
    @Test func anIndexBuiltByAnotherStoreValueIsUsedDespiteAStaleInfo() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let writer = try LogStore.open(at: url, create: true)
        try writer.append((0..<50).map { LogRecord(timestamp: Int64($0), eventMessage: $0 == 7 ? "needle here" : "hay \($0)") })
        try writer.rotate()
        // As `diag index` would, from another process.
        #expect(try LogStore.open(at: url).buildSearchIndexes() == 1)
        #expect(writer.info.chunks[0].searchIndex == false)
        let found = try writer.records(filter: StoreFilter(messageSearch: ["needle"])).all()
        #expect(found.map(\.eventMessage) == ["needle here"])
        #expect(try writer.count(filter: StoreFilter(messageSearch: ["needle"])) == 1)
        // The writer's own build finds the index there and does not build it again.
        #expect(try writer.buildSearchIndexes() == 1)
        #expect(writer.info.chunks[0].searchIndex)
    }
}
