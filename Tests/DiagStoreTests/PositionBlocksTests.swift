import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// The positions table (`MessageBlocks.buildPositionBlocks`): a sealed chunk's block sets turned
/// around, so that a search of a chunk not indexed yet reads a row per trigram of its needle
/// instead of every block's set (issue 15: through diagd, 44 such chunks of 10M records read
/// 1.6 MB of sets each for a rare needle).
@Suite struct PositionBlocksTests {
    /// Needles rare and common, short and long, with and without a match.
    static let needles = ["title is a required value", "finished in 42 ms", "upload", "#1999", "zzq", "alpha beta", "gamma"]

    /// A store whose open chunk holds `count` records (ids 1 to `count`; 6,000: blocks 0 to 93)
    /// of varied words, the rare needle in 4 of them (the last at index 5,990).
    private func store(_ folder: TemporaryDirectory, count: Int = 6_000) throws -> (LogStore, [LogRecord]) {
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        let words = ["alpha", "beta", "gamma", "delta", "sync", "push", "token", "retry", "zebra", "queue", "flush"]
        let records = (0..<count).map { index in
            LogRecord(timestamp: StoreTestRecords.base + Int64(index),
                      eventMessage: [7, 700, 1_999, 5_990].contains(index)
                          ? "Title Is A Required Value #\(index)"
                          : "upload \(index) \(words[index % words.count]) \(words[(index / 11) % words.count]) finished in \(index % 97) ms")
        }
        for batch in stride(from: 0, to: records.count, by: 4_000) {
            try store.append(Array(records[batch..<min(records.count, batch + 4_000)]))
        }
        return (store, records)
    }

    private func query(_ needle: String, _ database: Database) throws -> BlockQuery {
        try #require(BlockQuery(filter: StoreFilter(messageSearch: [MessageSearchIndex.fold(needle)]), tables: ChunkTables(database)))
    }

    /// The blocks whose sets hold the needle's positions, asked of the sets.
    private func setCandidates(_ needle: String, _ database: Database) throws -> [Int64] {
        let positions = try #require(MessageBlocks.positions(ofNeedles: [MessageSearchIndex.fold(needle)]))
        let statement = try database.prepare("SELECT block FROM \(MessageBlocks.table) WHERE \(MessageBlocks.functionName)(bits, ?) ORDER BY block")
        try statement.bind([SQLBlob(positions)])
        var blocks: [Int64] = []
        while try statement.step() { blocks.append(statement.int64(at: 0)) }
        return blocks
    }

    /// The seal writes a row for each of the 4,096 positions over the chunk's 258 blocks (16,500
    /// records); each needle's candidates from them are the blocks whose sets hold it, and the
    /// read's plan (the ids the masks leave, or a scan) is the one the sets gave before the seal.
    @Test func theSealTurnsTheSetsAroundAndTheyGiveTheSameIDs() throws {
        let folder = try TemporaryDirectory()
        let (store, records) = try store(folder, count: 16_500)
        let path = store.chunkPath(try #require(store.info.chunks.first).file)
        let open = try Database(path: path, options: .init(readOnly: true))
        #expect(try !ChunkTables(open).hasPositionBlocks)
        var before: [String: BlockPlan] = [:]
        for needle in Self.needles { before[needle] = MessageBlocks.plan(try query(needle, open), in: open) }
        try store.rotate()
        #expect(try #require(store.info.chunks.first).sealed)

        let sealed = try Database(path: path, options: .init(readOnly: true))
        #expect(try ChunkTables(sealed).hasPositionBlocks)
        #expect(try sealed.scalarInt("SELECT count(*) FROM \(MessageBlocks.positionsTable) WHERE first = 0 AND count = 258 AND length(blocks) = 33") == 4_096)
        var rareIDs = 0
        for needle in Self.needles {
            let blockQuery = try query(needle, sealed)
            #expect(blockQuery.positionBlocks)
            let positions = try #require(blockQuery.positions)
            let fromTable = try #require(try MessageBlocks.positionCandidates(positions, in: sealed))
            #expect(fromTable.first == 0 && fromTable.end == 258)
            #expect(fromTable.blocks == (try setCandidates(needle, sealed)), "\(needle)")
            let plan = MessageBlocks.plan(blockQuery, in: sealed)
            #expect(plan == before[needle], "\(needle)")
            if needle == "title is a required value", case .ids(let ids) = plan {
                rareIDs = Int(try sealed.scalarInt("SELECT count(*) FROM json_each(?)", [ids]) ?? -1)
            }
            #expect(try store.records(filter: StoreFilter(messageSearch: [MessageSearchIndex.fold(needle)])).all()
                    == StoreTestRecords.containing(records, needle), "\(needle)")
        }
        #expect((4...12).contains(rareIDs), "the rare needle's ids: \(rareIDs)")
    }

    /// A sealed copy of the store's chunk of 6,000 records with its positions table (built
    /// here: the seal builds none for its 94 blocks, under `minimumPositionSpan`), to be spoiled
    /// by a test.
    private func sealedCopy(_ folder: TemporaryDirectory, name: String) throws -> (Database, [LogRecord]) {
        let (store, records) = try store(folder)
        try store.rotate()
        let path = store.chunkPath(try #require(store.info.chunks.first).file)
        try store.close()
        let copy = folder.file(name).path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let database = try Database(path: copy, options: .init(create: false))
        #expect(try !ChunkTables(database).hasPositionBlocks)
        try database.inTransaction { try MessageBlocks.buildPositionBlocks(database, minimumBlocks: 1) }
        #expect(try database.scalarInt("SELECT count(*) FROM \(MessageBlocks.positionsTable) WHERE first = 0 AND count = 94 AND length(blocks) = 12") == 4_096)
        return (database, records)
    }

    private func planFromTheSets(_ needle: String, _ database: Database) throws -> BlockPlan {
        var setsOnly = try query(needle, database)
        setsOnly.positionBlocks = false
        return MessageBlocks.plan(setsOnly, in: database)
    }

    /// When `plan` gives ids, every record of `records` (ids 1, 2, …) holding `needle` is among them.
    private func expectEveryMatch(of needle: String, among plan: BlockPlan, _ records: [LogRecord], _ database: Database,
                                  _ comment: Comment) throws {
        guard case .ids(let ids) = plan else { return }
        let found = try database.prepare("SELECT id FROM records WHERE id IN (SELECT value FROM json_each(?))")
        try found.bind([ids])
        var matches: Set<Int64> = []
        while try found.step() { matches.insert(found.int64(at: 0)) }
        let expected = records.indices.filter { MessageSearchIndex.fold(records[$0].eventMessage).contains(MessageSearchIndex.fold(needle)) }
        #expect(expected.allSatisfy { matches.contains(Int64($0 + 1)) }, comment)
    }

    /// A table that does not hang together (a chunk made elsewhere, or spoiled) is not used: a
    /// position without its row, rows of other ranges, sizes or types, a range past Int64. The
    /// sets answer, with the same ids. `{P}` is a position of the rare needle (its other rows
    /// stay as they were); a spoiler without it spoils every row, and is tried with every needle.
    @Test(arguments: [
        "DELETE FROM message_position_blocks WHERE position = {P}",
        "UPDATE message_position_blocks SET first = first + 1 WHERE position = {P}",
        "UPDATE message_position_blocks SET count = count - 1 WHERE position = {P}",
        "UPDATE message_position_blocks SET blocks = blocks || X'00' WHERE position = {P}",
        "UPDATE message_position_blocks SET count = 97",
        "UPDATE message_position_blocks SET blocks = 'text ' || position",
        "UPDATE message_position_blocks SET blocks = X''",
        "UPDATE message_position_blocks SET first = 'text'",
        "UPDATE message_position_blocks SET first = 9223372036854775800",
        "UPDATE message_position_blocks SET count = 0, blocks = X''",
        "UPDATE message_position_blocks SET count = -8, blocks = X''",
        "UPDATE message_position_blocks SET count = 1099511627776, blocks = zeroblob(137438953472 / 1048576)",
        "DELETE FROM message_position_blocks",
    ])
    func aTableThatDoesNotHangTogetherLeavesItToTheSets(spoiler: String) throws {
        let folder = try TemporaryDirectory()
        let (database, records) = try sealedCopy(folder, name: "spoiled.sqlite")
        let rare = "title is a required value"
        let rarePositions = try #require(MessageBlocks.positions(ofNeedles: [rare]))
        let position = Int(rarePositions[4]) | Int(rarePositions[5]) << 8
        try database.execute(spoiler.replacingOccurrences(of: "{P}", with: String(position)))
        for needle in spoiler.contains("{P}") ? [rare] : Self.needles {
            let blockQuery = try query(needle, database)
            let positions = try #require(blockQuery.positions)
            #expect(try MessageBlocks.positionCandidates(positions, in: database) == nil, "\(spoiler): \(needle)")
            let plan = MessageBlocks.plan(blockQuery, in: database)
            #expect(plan == (try planFromTheSets(needle, database)), "\(spoiler): \(needle)")
            try expectEveryMatch(of: needle, among: plan, records, database, "\(spoiler): \(needle)")
        }
    }

    /// The record masks of the candidate blocks, read in one statement through the positions
    /// table, answer as the sets' reading does when they are missing or spoiled (a chunk made
    /// elsewhere): a block without its row, or with masks of another size or type, keeps its 64
    /// ids, and every match stays among the ids.
    @Test(arguments: [
        "DELETE FROM message_record_masks WHERE block % 2 = 0",
        "DELETE FROM message_record_masks",
        "UPDATE message_record_masks SET masks = 'text ' || block WHERE block % 3 = 0",
        "UPDATE message_record_masks SET masks = X'' WHERE block % 3 = 1",
        "UPDATE message_record_masks SET masks = 42 WHERE block % 2 = 1",
        "UPDATE message_record_masks SET masks = substr(masks, 1, 1000) WHERE block % 2 = 1",
        "UPDATE message_record_masks SET masks = masks || X'00'",
        "INSERT INTO message_record_masks (block, masks) VALUES (-5, X'FF'), (9223372036854775807, X'00')",
    ])
    func spoiledMasksKeepTheirBlocksIDsThroughTheTable(spoiler: String) throws {
        let folder = try TemporaryDirectory()
        let (database, records) = try sealedCopy(folder, name: "masks.sqlite")
        try database.execute(spoiler)
        for needle in Self.needles {
            let blockQuery = try query(needle, database)
            let positions = try #require(blockQuery.positions)
            #expect(try MessageBlocks.positionCandidates(positions, in: database) != nil, "\(spoiler): \(needle)")
            let plan = MessageBlocks.plan(blockQuery, in: database)
            #expect(plan == (try planFromTheSets(needle, database)), "\(spoiler): \(needle)")
            try expectEveryMatch(of: needle, among: plan, records, database, "\(spoiler): \(needle)")
        }
    }

    /// Blocks past the table's range (written after it was built; no writer of this store does,
    /// but a chunk may come from elsewhere) are asked of their sets: nothing they hold is lost.
    @Test func blocksTheTableDoesNotCoverAreAskedOfTheSets() throws {
        let folder = try TemporaryDirectory()
        let (database, records) = try sealedCopy(folder, name: "partial.sqlite")
        try database.inTransaction {
            try database.execute("CREATE TEMP TABLE later AS SELECT * FROM \(MessageBlocks.table) WHERE block >= 90")
            try database.execute("DELETE FROM \(MessageBlocks.table) WHERE block >= 90")
            try MessageBlocks.buildPositionBlocks(database, minimumBlocks: 1)
            try database.execute("INSERT INTO \(MessageBlocks.table) SELECT * FROM temp.later")
        }
        #expect(try database.scalarInt("SELECT count(*) FROM \(MessageBlocks.positionsTable) WHERE count = 90") == 4_096)
        for needle in Self.needles {
            let blockQuery = try query(needle, database)
            let positions = try #require(blockQuery.positions)
            let fromTable = try #require(try MessageBlocks.positionCandidates(positions, in: database))
            #expect(fromTable.blocks.allSatisfy { $0 < 90 } && fromTable.end == 90)
            #expect(MessageBlocks.plan(blockQuery, in: database) == (try planFromTheSets(needle, database)), "\(needle)")
        }
        // Record 5,991 (id 5,991, block 93) holds the rare needle.
        #expect(StoreTestRecords.containing(records, "title is a required value").contains(records[5_990]))
        guard case .ids(let ids) = MessageBlocks.plan(try query("title is a required value", database), in: database) else {
            Issue.record("the rare needle is read by ids")
            return
        }
        #expect(try database.scalarInt("SELECT count(*) FROM json_each(?) WHERE value = 5991", [ids]) == 1)
    }

    /// A snapshot's trim builds the table again over the blocks it keeps when they are enough
    /// (`minimumPositionSpan`; here they are not); a writer that opens
    /// the chunk again drops it (the blocks it would write are not in it).
    @Test func aTrimRebuildsTheTableAndAWriterDropsIt() throws {
        let folder = try TemporaryDirectory()
        let (database, records) = try sealedCopy(folder, name: "trimmed.sqlite")
        // Ids 1,001 to 2,000 stay: blocks 15 (ids 960–1,023) to 31.
        try database.execute("DELETE FROM records WHERE timestamp < ? OR timestamp >= ?",
                             [StoreTestRecords.base + 1_000, StoreTestRecords.base + 2_000])
        try MessageBlocks.removeEmptyBlocks(database, tables: ChunkTables(database))
        // 17 blocks are left, under `minimumPositionSpan`: no table, the sets answer.
        #expect(try !ChunkTables(database).hasPositionBlocks)
        try database.inTransaction { try MessageBlocks.buildPositionBlocks(database, minimumBlocks: 1) }
        #expect(try database.scalarInt("SELECT count(*) FROM \(MessageBlocks.positionsTable) WHERE first = 15 AND count = 17 AND length(blocks) = 3") == 4_096)
        let left = Array(records[1_000..<2_000])
        for needle in Self.needles {
            let plan = MessageBlocks.plan(try query(needle, database), in: database)
            #expect(plan == (try planFromTheSets(needle, database)), "\(needle)")
        }
        #expect(StoreTestRecords.containing(left, "title is a required value").count == 1)
        let path = database.path
        _ = try ChunkWriter(path: path)
        #expect(try !ChunkTables(Database(path: path, options: .init(readOnly: true))).hasPositionBlocks)
    }

    /// A sealed chunk with the table is one this store writes (`ForeignChunk`), so a bundle of it opens.
    @Test func aSealedChunkWithTheTableIsTheStoresOwn() throws {
        let folder = try TemporaryDirectory()
        let (database, _) = try sealedCopy(folder, name: "own.sqlite")
        #expect(try ForeignChunk.inspect(path: database.path) == .current)
    }
}
