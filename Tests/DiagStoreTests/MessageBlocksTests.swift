import DiagGenerator
import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// The writer's block sets (`MessageBlocks`): what the open chunk and the chunks not indexed yet
/// answer a `CONTAINS` with (issue 15), instead of folding every message.
@Suite struct MessageBlocksTests {
    /// One set built from `messages` as the writer builds it, as the bytes the table holds.
    private func set(of messages: [String]) -> [UInt8] {
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: MessageBlocks.wordCount)
        defer { words.deallocate() }
        words.initialize(repeating: 0, count: MessageBlocks.wordCount)
        for message in messages {
            var message = message
            message.withUTF8 { MessageBlocks.add($0, to: words) }
        }
        return (0..<MessageBlocks.wordCount).flatMap { index in
            withUnsafeBytes(of: words[index].littleEndian) { Array($0) }
        }
    }

    private func mayContain(_ database: Database, set: [UInt8], needle: String) throws -> Bool {
        let positions = try #require(MessageBlocks.positions(ofNeedles: [needle]))
        return try database.scalarInt("SELECT \(MessageBlocks.functionName)(?, ?)", [SQLBlob(set), SQLBlob(positions)]) == 1
    }

    /// The bits `MessageBlocks.add` must set, one trigram at a time through `MessageBlocks.bit`,
    /// each byte lowered alone: the reference the writer's loop is held to.
    private func addOneByOne(_ message: UnsafeBufferPointer<UInt8>, to words: UnsafeMutablePointer<UInt64>, mask: UnsafeMutablePointer<UInt64>) {
        func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
        let lowered: [UInt8] = message.contains(where: { $0 >= 0x80 })
            ? Array(MessageSearchIndex.fold(String(decoding: message, as: UTF8.self)).utf8).map(lower)
            : message.map(lower)
        guard lowered.count >= 3 else { return }
        for index in 2..<lowered.count {
            let position = MessageBlocks.bit(lowered[index - 2], lowered[index - 1], lowered[index])
            words[position >> 6] |= 1 << UInt64(position & 63)
            mask[(position >> 6) & 1] |= 1 << UInt64(position & 63)
        }
    }

    /// The writer's loop (eight bytes lowered at a time, a rolling key) sets the bits and record
    /// masks that `bit` gives trigram by trigram, for every length (the eight-byte steps and the
    /// tail), capitals at every place in a word, bytes from 0x80 on (UTF-8, and not) and
    /// the characters around "A", "Z", "a", "z", "@" and "[" that a carry would confuse.
    @Test func theWritersLoopSetsTheBitsOfEachTrigram() throws {
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: MessageBlocks.wordCount)
        let reference = UnsafeMutablePointer<UInt64>.allocate(capacity: MessageBlocks.wordCount)
        let mask = UnsafeMutablePointer<UInt64>.allocate(capacity: MessageBlocks.maskWords)
        let referenceMask = UnsafeMutablePointer<UInt64>.allocate(capacity: MessageBlocks.maskWords)
        defer { words.deallocate(); reference.deallocate(); mask.deallocate(); referenceMask.deallocate() }
        var picker = SeededPicker(state: 2612)
        let ascii: [UInt8] = Array("@AZ[`az{ Mq09\t\"_".utf8) + [0x00, 0x1F, 0x7F, 0x40, 0x5B, 0x60, 0x7B]
        let high: [[UInt8]] = [Array("é".utf8), Array("É".utf8), Array("ẞ".utf8), Array("🙂".utf8), [0x80], [0xC1], [0xFF], [0xE2, 0x82]]
        var nonASCIIChecked = 0
        for round in 0..<4_000 {
            var message: [UInt8] = []
            let length = round < 40 ? round : picker.int(90)
            let withHigh = picker.int(4) == 0
            while message.count < length {
                if withHigh, picker.int(8) == 0 { message += picker.pick(high) } else { message.append(picker.pick(ascii)) }
            }
            if message.contains(where: { $0 >= 0x80 }) { nonASCIIChecked += 1 }
            words.initialize(repeating: 0, count: MessageBlocks.wordCount)
            reference.initialize(repeating: 0, count: MessageBlocks.wordCount)
            mask.initialize(repeating: 0, count: MessageBlocks.maskWords)
            referenceMask.initialize(repeating: 0, count: MessageBlocks.maskWords)
            message.withUnsafeBufferPointer {
                MessageBlocks.add($0, to: words, mask: mask)
                addOneByOne($0, to: reference, mask: referenceMask)
            }
            let same = (0..<MessageBlocks.wordCount).allSatisfy { words[$0] == reference[$0] }
                && mask[0] == referenceMask[0] && mask[1] == referenceMask[1]
            #expect(same, "message bytes \(message)")
            if !same { break }
        }
        #expect(nonASCIIChecked > 500)
        // Every byte value lowered by the word as `lower` lowers it alone.
        for byte in 0...255 {
            let word = UInt64(byte) * 0x0101_0101_0101_0101
            let lowered = UInt8(byte) &- 0x41 < 26 ? UInt8(byte) | 0x20 : UInt8(byte)
            #expect(MessageBlocks.lowerWord(word) == UInt64(lowered) * 0x0101_0101_0101_0101, "byte \(byte)")
        }
    }

    /// Every needle cut out of a folded message passes the set of a block holding that message,
    /// whatever its characters: the filter may keep too much, never too little.
    @Test func aBlockHoldingAMatchAlwaysPasses() throws {
        let database = try Database(path: ":memory:")
        var picker = SeededPicker(state: 15)
        func int(in range: ClosedRange<Int>) -> Int { range.lowerBound + picker.int(range.count) }
        let alphabet: [String] = Array("abcXYZ 019:/_-\"'\u{0}").map { String($0) }
            + ["é", "É", "ß", "Straße", "ﬁ", "İ", "ς", "Σ", "e\u{301}", "🙂", "中文", "Å"]
        for _ in 0..<300 {
            let messages: [String] = (0..<int(in: 1...64)).map { _ in
                (0..<int(in: 0...40)).map { _ in picker.pick(alphabet) }.joined()
            }
            let bits = set(of: messages)
            #expect(bits.count == MessageBlocks.byteCount)
            let message = picker.pick(messages)
            let folded = Array(MessageSearchIndex.fold(message).unicodeScalars)
            guard folded.count >= 2 else { continue }
            let start = int(in: 0...(folded.count - 2))
            let end = int(in: (start + 1)...folded.count)
            var needle = String.UnicodeScalarView()
            needle.append(contentsOf: folded[start..<end])
            let text = String(needle)
            guard MessageBlocks.positions(ofNeedles: [text]) != nil else { continue }
            #expect(try mayContain(database, set: bits, needle: text), "\(messages) \(text)")
            // Case and diacritics do not matter: the needle is folded as the messages are.
            #expect(try mayContain(database, set: bits, needle: text.uppercased()) || text.uppercased() != text, "\(text)")
        }
    }

    @Test func aBlockWithoutTheNeedlesTrigramsIsSkipped() throws {
        let database = try Database(path: ":memory:")
        let bits = set(of: ["connection reset by peer", "upload finished", "Café ÉCOLE"])
        #expect(try mayContain(database, set: bits, needle: "reset by"))
        #expect(try mayContain(database, set: bits, needle: "CAFE ecole"))
        #expect(try !mayContain(database, set: bits, needle: "title is a required value"))
        // Under 3 bytes once folded, or with U+FFFD, a needle gives no positions: no filter.
        #expect(MessageBlocks.positions(ofNeedles: ["ok"]) == nil)
        #expect(MessageBlocks.positions(ofNeedles: ["bad\u{FFFD}x"]) == nil)
        #expect(MessageBlocks.positions(ofNeedles: ["ok", "reset"]) != nil)
    }

    /// A set that is not the writer's size (a chunk from elsewhere) or not a blob may hold
    /// anything: its block is kept, so nothing is hidden and nothing is read out of bounds.
    @Test func aSetOfAnotherSizeOrTypeKeepsItsBlock() throws {
        let database = try Database(path: ":memory:")
        let positions = try #require(MessageBlocks.positions(ofNeedles: ["title is a required value"]))
        for bits: SQLValueConvertible? in [SQLBlob([]), SQLBlob([0]), SQLBlob([UInt8](repeating: 0, count: MessageBlocks.byteCount - 1)),
                                           SQLBlob([UInt8](repeating: 0, count: MessageBlocks.byteCount * 2)), "text", 7, nil] {
            #expect(try database.scalarInt("SELECT \(MessageBlocks.functionName)(?, ?)", [bits, SQLBlob(positions)]) == 1)
        }
        // Positions past the set's size (only a hand-made blob has them) are read modulo its bits.
        let zero = SQLBlob([UInt8](repeating: 0, count: MessageBlocks.byteCount))
        #expect(try database.scalarInt("SELECT \(MessageBlocks.functionName)(?, ?)", [zero, SQLBlob([0xFF, 0xFF])]) == 0)
        #expect(try database.scalarInt("SELECT \(MessageBlocks.functionName)(?, ?)", [zero, SQLBlob([])]) == 1)
    }

    /// Records in a store's open chunk: 3,200 (51 blocks), the needle in 4 of them.
    private func openChunkStore(_ folder: TemporaryDirectory, needleAt: Set<Int> = [7, 700, 1_999, 3_100]) throws -> (LogStore, [LogRecord]) {
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        let records = (0..<3_200).map { index in
            LogRecord(timestamp: StoreTestRecords.base + Int64(index),
                      eventMessage: needleAt.contains(index) ? "Title Is A Required Value #\(index)" : "upload \(index) finished in \(index % 97) ms")
        }
        for batch in stride(from: 0, to: records.count, by: 500) {
            try store.append(Array(records[batch..<min(records.count, batch + 500)]))
        }
        return (store, records)
    }

    /// The condition a reader of the chunk behind `database` builds for `filter`.
    private func condition(_ filter: StoreFilter, _ database: Database) throws -> ChunkCondition {
        let tables = try ChunkTables(database)
        return ChunkCondition(filter: filter, searchIndex: tables.hasSearchIndex,
                              blocks: BlockQuery(filter: filter, tables: tables).map { ($0, { MessageBlocks.plan($0, in: database) }) })
    }

    @Test func theOpenChunkAnswersARareNeedleThroughItsBlocks() throws {
        let folder = try TemporaryDirectory()
        let (store, records) = try openChunkStore(folder)
        let chunk = try #require(store.info.chunks.first)
        #expect(!chunk.sealed && !chunk.searchIndex)
        let database = try Database(path: store.chunkPath(chunk.file), options: .init(readOnly: true))
        // Ids 1 to 3,200: blocks 0 (ids 1–63) to 50 (id 3,200).
        #expect(try database.scalarInt("SELECT count(*) FROM \(MessageBlocks.table)") == 51)
        // The rare needle reads its candidate blocks, not the chunk.
        let filter = StoreFilter(messageSearch: [MessageSearchIndex.fold("title is a REQUIRED value")])
        let rare = try condition(filter, database)
        #expect(rare.readsThroughBlocks)
        let candidates = try database.scalarInt("SELECT count(*) FROM records\(rare.sql)", rare.bindings)
        #expect(candidates == 4)
        #expect(try store.records(filter: filter).all() == StoreTestRecords.containing(records, "title is a required value"))
        #expect(try store.count(filter: filter) == 4)
        // A needle in every block is not worth it: the chunk is scanned, with the same answer.
        let common = StoreFilter(messageSearch: ["finished"])
        #expect(try !condition(common, database).readsThroughBlocks)
        #expect(try store.records(filter: common).all() == StoreTestRecords.containing(records, "finished"))
    }

    /// A candidate block's record masks leave the records that may hold the needle, not the
    /// block's 64: the 4 rare records of the open chunk, and few others if any.
    @Test func recordMasksNarrowACandidateBlockToItsRecords() throws {
        let folder = try TemporaryDirectory()
        let (store, records) = try openChunkStore(folder)
        let chunk = try #require(store.info.chunks.first)
        let database = try Database(path: store.chunkPath(chunk.file), options: .init(readOnly: true))
        let tables = try ChunkTables(database)
        #expect(tables.hasRecordMasks)
        #expect(try database.scalarInt("SELECT count(*) FROM \(MessageBlocks.masksTable) WHERE length(masks) = \(MessageBlocks.masksByteCount)") == 51)
        let filter = StoreFilter(messageSearch: [MessageSearchIndex.fold("title is a REQUIRED value")])
        let query = try #require(BlockQuery(filter: filter, tables: tables))
        #expect(query.masks)
        #expect(StoreTestRecords.containing(records, "title is a required value").count == 4)
        // The read's plan binds the ids the masks leave, looked up once.
        guard case .ids(let ids) = MessageBlocks.plan(query, in: database) else {
            Issue.record("a rare needle is read through the ids its masks leave")
            return
        }
        let narrowed = try database.scalarInt("SELECT count(*) FROM records WHERE id IN (SELECT value FROM json_each(?))", [ids])
        #expect((4...8).contains(narrowed ?? -1), "\(narrowed ?? -1) ids read")
        // Without the masks (a chunk written before them), every id of the candidate blocks.
        let whole = try database.scalarInt("SELECT count(*) FROM records WHERE \(MessageBlocks.candidateCondition(query))", query.bindings)
        #expect((4 * 60...4 * 64).contains(whole ?? -1), "\(whole ?? -1) ids read")
    }

    /// A block's record masks as the writer stores them (128 bits a record) and as the first
    /// writer did (64 bits, `position & 63`), from the same messages; with `appendIDs`,
    /// both keep every record holding the needle, the wide ones never more records than the
    /// narrow ones, and over generated messages fewer (the reason they are wide).
    @Test func wideAndNarrowMasksKeepEveryMatchAndWideOnesFewerOthers() throws {
        let database = try Database(path: ":memory:")
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: MessageBlocks.wordCount)
        let masks = UnsafeMutablePointer<UInt64>.allocate(capacity: MessageBlocks.recordsPerBlock * MessageBlocks.maskWords)
        defer { words.deallocate(); masks.deallocate() }
        let messages = RecordGenerator(GeneratorOptions(count: 6_400, seed: 3)).map(\.eventMessage)
        let needles = ["delivering push", "batch ", "title is a required value", "sync", "zebra-unicode-token", "é…"]
        var kept = (wide: 0, narrow: 0, matches: 0)
        for start in stride(from: 0, to: messages.count, by: MessageBlocks.recordsPerBlock) {
            let block = Array(messages[start..<start + MessageBlocks.recordsPerBlock])
            words.initialize(repeating: 0, count: MessageBlocks.wordCount)
            masks.initialize(repeating: 0, count: MessageBlocks.recordsPerBlock * MessageBlocks.maskWords)
            for (record, message) in block.enumerated() {
                var message = message
                message.withUTF8 { MessageBlocks.add($0, to: words, mask: masks + record * MessageBlocks.maskWords) }
            }
            let wide = (0..<MessageBlocks.recordsPerBlock * MessageBlocks.maskWords).flatMap { withUnsafeBytes(of: masks[$0].littleEndian) { Array($0) } }
            let narrow = (0..<MessageBlocks.recordsPerBlock).flatMap { record in
                withUnsafeBytes(of: (masks[2 * record] | masks[2 * record + 1]).littleEndian) { Array($0) }
            }
            #expect(wide.count == MessageBlocks.masksByteCount && narrow.count == MessageBlocks.narrowMasksByteCount)
            for needle in needles {
                let positions = try #require(MessageBlocks.positions(ofNeedles: [needle]))
                func ids(_ masks: [UInt8]) throws -> Set<Int64> {
                    Set(try Self.blockIDs(database, 0, SQLBlob(masks), positions))
                }
                let matching = Set(block.indices.filter { MessageSearchIndex.fold(block[$0]).contains(MessageSearchIndex.fold(needle)) }.map(Int64.init))
                let (wideIDs, narrowIDs) = (try ids(wide), try ids(narrow))
                #expect(matching.isSubset(of: wideIDs) && wideIDs.isSubset(of: narrowIDs), "\(needle) in block \(start / 64)")
                kept.wide += wideIDs.count
                kept.narrow += narrowIDs.count
                kept.matches += matching.count
            }
        }
        #expect(kept.matches > 100, "the needles are found: \(kept)")
        #expect(kept.wide < kept.narrow, "\(kept)")
    }

    /// A snapshot's chunk trimmed to its window keeps the sets and masks of the blocks that
    /// still hold a record, and no others; a search on it finds what is left.
    @Test func aTrimmedChunkKeepsTheBlocksOfItsRecordsOnly() throws {
        let folder = try TemporaryDirectory()
        let (store, records) = try openChunkStore(folder)
        let path = store.chunkPath(try #require(store.info.chunks.first).file)
        try store.close()
        let database = try Database(path: path, options: .init(create: false))
        // Ids 1 to 3,200 at base + 0 to 3,199: ids 1,001 to 2,000 stay, blocks 15 (ids 960–1,023) to 31.
        try database.execute("DELETE FROM records WHERE timestamp < ? OR timestamp >= ?",
                             [StoreTestRecords.base + 1_000, StoreTestRecords.base + 2_000])
        try MessageBlocks.removeEmptyBlocks(database, tables: ChunkTables(database))
        for table in [MessageBlocks.table, MessageBlocks.masksTable] {
            #expect(try database.scalarInt("SELECT count(*) FROM \(table)") == 17, "\(table)")
            #expect(try database.scalarInt("SELECT min(block) FROM \(table)") == 15, "\(table)")
            #expect(try database.scalarInt("SELECT max(block) FROM \(table)") == 31, "\(table)")
        }
        let reopened = try LogStore.open(at: folder.file("s.logarchive"))
        let left = records.filter { $0.timestamp >= StoreTestRecords.base + 1_000 && $0.timestamp < StoreTestRecords.base + 2_000 }
        #expect(try reopened.records(filter: StoreFilter(messageSearch: ["title is a required value"])).all()
                == StoreTestRecords.containing(left, "title is a required value"))
        #expect(try reopened.records(filter: StoreFilter(messageSearch: ["finished in 42 ms"])).all().count
                == StoreTestRecords.containing(left, "finished in 42 ms").count)
    }

    /// The ids `MessageBlocks.appendIDs` leaves of `block` for `positions`, with `masks` read as
    /// the reader reads a stored value (`blobIfBlob`: a value of another type is no masks).
    static func blockIDs(_ database: Database, _ block: Int64, _ masks: SQLValueConvertible?, _ positions: [UInt8]) throws -> [Int64] {
        let statement = try database.prepare("SELECT ?")
        try statement.bind([masks])
        _ = try statement.step()
        let wanted = positions.withUnsafeBufferPointer(MessageBlocks.WantedBits.init)
        var json: [UInt8] = [UInt8(ascii: "[")]
        if let stored = statement.blobIfBlob(at: 0) {
            _ = stored.withUnsafeBytes { MessageBlocks.appendIDs(block: block, masks: $0, wanted: wanted, to: &json) }
        } else {
            MessageBlocks.appendIDs(block: block, masks: nil, wanted: wanted, to: &json)
        }
        json.append(UInt8(ascii: "]"))
        return try JSONDecoder().decode([Int64].self, from: Data(json))
    }

    /// A block's ids keep every id it cannot narrow: masks absent, of another size or type; a
    /// block number no id falls in gives none, and nothing fails.
    @Test func blockIDsKeepWhatTheyCannotRuleOut() throws {
        let database = try Database(path: ":memory:")
        let positions = try #require(MessageBlocks.positions(ofNeedles: ["needle"]))
        func ids(_ block: Int64, _ masks: SQLValueConvertible?) throws -> Int64? {
            Int64(try Self.blockIDs(database, block, masks, positions).count)
        }
        #expect(try ids(2, nil) == 64)
        #expect(try ids(2, SQLBlob([0])) == 64)
        #expect(try ids(2, "text") == 64)
        #expect(try ids(-1, SQLBlob([UInt8](repeating: 0, count: MessageBlocks.masksByteCount))) == 0)
        #expect(try ids(-1, SQLBlob([UInt8](repeating: 0xFF, count: MessageBlocks.masksByteCount))) == 64)
        #expect(try ids(-1, SQLBlob([UInt8](repeating: 0, count: MessageBlocks.narrowMasksByteCount))) == 0)
        #expect(try ids(-1, SQLBlob([UInt8](repeating: 0xFF, count: MessageBlocks.narrowMasksByteCount))) == 64)
        #expect(try ids(2, SQLBlob([UInt8](repeating: 0, count: MessageBlocks.masksByteCount - 8))) == 64)
        #expect(try Self.blockIDs(database, -1, nil, positions).min() == -64)
        #expect(try ids(.max, nil) == 0)
        #expect(try ids(.min, nil) == 0)
        #expect(try ids(Int64.max >> 6, nil) == 64)
    }

    /// A store whose one chunk holds a record "an older writer's needle-old" written without
    /// `table` (dropped, as an older writer would not have made it), reopened, and appended
    /// records 1 to 1,999 "newer N needle-new"; and the chunk's path.
    private func reopenedAfterDropping(_ table: String, in folder: TemporaryDirectory) throws -> (LogStore, String) {
        let url = folder.file("s.logarchive")
        var store: LogStore? = try LogStore.open(at: url, create: true)
        try store?.append([LogRecord(timestamp: StoreTestRecords.base, eventMessage: "an older writer's needle-old")])
        let path = try #require(store.map { $0.chunkPath($0.info.chunks[0].file) })
        try store?.close()
        store = nil
        try Database(path: path).execute("DROP TABLE \(table)")
        let reopened = try LogStore.open(at: url)
        try reopened.append((1..<2_000).map { LogRecord(timestamp: StoreTestRecords.base + Int64($0), eventMessage: "newer \($0) needle-new") })
        return (reopened, path)
    }

    /// A chunk whose sets were written before the record masks keeps its sets without them when
    /// a newer writer appends: its earlier rows have no mask.
    @Test func aChunkWithSetsButNoMasksKeepsWithout() throws {
        let folder = try TemporaryDirectory()
        let (reopened, path) = try reopenedAfterDropping(MessageBlocks.masksTable, in: folder)
        let database = try Database(path: path, options: .init(readOnly: true))
        #expect(try database.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = '\(MessageBlocks.masksTable)'") == 0)
        #expect(try database.scalarInt("SELECT count(*) FROM \(MessageBlocks.table)") == 32)
        #expect(try reopened.records(filter: StoreFilter(messageSearch: ["needle-old"])).all().count == 1)
        #expect(try reopened.records(filter: StoreFilter(messageSearch: ["1999 needle-new"])).all().count == 1)
    }

    /// The same answers with the sets and without them, for needles rare and common, short and
    /// long, several at once, with a time window.
    @Test func answersAreTheSameWithAndWithoutTheSets() throws {
        let folder = try TemporaryDirectory()
        let (store, records) = try openChunkStore(folder)
        let plain = try TemporaryDirectory()
        let copy = try LogStore.open(at: plain.file("s.logarchive"), create: true)
        try copy.append(records)
        let chunk = try #require(copy.info.chunks.first)
        try Database(path: copy.chunkPath(chunk.file)).execute("DROP TABLE \(MessageBlocks.table)")
        for needles in [["title is a required value"], ["finished in 3 ms"], ["#7"], ["zzq"], ["upload", "#1999"], ["ti", "value"]] {
            for (start, end) in [(nil, nil), (StoreTestRecords.base + 500, StoreTestRecords.base + 2_000)] as [(Int64?, Int64?)] {
                let filter = StoreFilter(start: start, end: end, messageSearch: needles.map(MessageSearchIndex.fold))
                let withSets = try store.records(filter: filter).all()
                #expect(withSets == (try copy.records(filter: filter).all()), "\(needles)")
                let expected = records.filter { record in
                    needles.allSatisfy { MessageSearchIndex.fold(record.eventMessage).contains(MessageSearchIndex.fold($0)) }
                        && record.timestamp >= (start ?? .min) && record.timestamp < (end ?? .max)
                }
                #expect(withSets == expected, "\(needles)")
            }
        }
    }

    /// A writer that stops in the middle of a block and starts again keeps the rows it wrote
    /// before: the stored set is loaded and added to, not replaced.
    @Test func aRestartInTheMiddleOfABlockKeepsItsEarlierRowsFound() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        var store: LogStore? = try LogStore.open(at: url, create: true)
        try store?.append([LogRecord(timestamp: StoreTestRecords.base, eventMessage: "written before the restart: needle-before"),
                           LogRecord(timestamp: StoreTestRecords.base + 1, eventMessage: "filler")])
        try store?.close()
        store = nil
        let reopened = try LogStore.open(at: url)
        try reopened.append((2..<2_000).map { LogRecord(timestamp: StoreTestRecords.base + Int64($0), eventMessage: "after \($0)") })
        let filter = StoreFilter(messageSearch: ["needle-before"])
        let chunk = try #require(reopened.info.chunks.first)
        let database = try Database(path: reopened.chunkPath(chunk.file), options: .init(readOnly: true))
        #expect(try condition(filter, database).readsThroughBlocks)
        #expect(try reopened.records(filter: filter).all().map(\.timestamp) == [StoreTestRecords.base])
    }

    /// A chunk that holds rows written without sets (an older writer) gets none for the rows
    /// appended now: sets for those alone would hide the older rows from a search.
    @Test func aChunkWithRowsButNoSetsIsLeftWithout() throws {
        let folder = try TemporaryDirectory()
        let (reopened, path) = try reopenedAfterDropping(MessageBlocks.table, in: folder)
        #expect(try Database(path: path, options: .init(readOnly: true))
            .scalarInt("SELECT count(*) FROM sqlite_master WHERE name = '\(MessageBlocks.table)'") == 0)
        #expect(try reopened.records(filter: StoreFilter(messageSearch: ["needle-old"])).all().count == 1)
    }

    /// Sealing and the search index leave the sets as they are; a sealed, indexed chunk is
    /// searched through its index.
    @Test func aSealedIndexedChunkKeepsItsSetsAndUsesItsIndex() throws {
        let folder = try TemporaryDirectory()
        let (store, records) = try openChunkStore(folder)
        try store.rotate()
        #expect(try store.buildSearchIndexes() == 1)
        let chunk = try #require(store.info.chunks.first)
        #expect(chunk.sealed && chunk.searchIndex)
        let database = try Database(path: store.chunkPath(chunk.file), options: .init(readOnly: true))
        #expect(try database.scalarInt("SELECT count(*) FROM \(MessageBlocks.table)") == 51)
        let filter = StoreFilter(messageSearch: ["title is a required value"])
        let condition = try condition(filter, database)
        #expect(condition.sql.contains(ChunkSchema.searchTable) && !condition.readsThroughBlocks)
        #expect(try store.records(filter: filter).all() == StoreTestRecords.containing(records, "title is a required value"))
        #expect(try ForeignChunk.inspect(path: store.chunkPath(chunk.file)) == .current)
    }

    /// Sealed chunks that overlap in time and have no search index yet (a busy diagd's) are read
    /// in time slices; with a needle of a trigram or more, those with block sets are read whole
    /// instead (each a part read at once with the others), so that their candidates are looked
    /// up once, not once per slice, and each reader decides from its sets whether to read id by
    /// id. A needle under 3 bytes keeps the slices.
    @Test func overlappingSealedChunksSearchedThroughTheirSetsAreReadWhole() throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        var all: [LogRecord] = []
        for chunk in 0..<2 {
            let records = (0..<20_000).map { index in
                LogRecord(timestamp: StoreTestRecords.base + Int64(2 * index + chunk),
                          eventMessage: index % 5_000 == 17 ? "rare needle-x in \(chunk)" : "common line \(index)")
            }
            try store.append(records)
            try store.rotate()
            all += records
        }
        #expect(store.info.chunks.allSatisfy { $0.sealed && !$0.searchIndex })
        for needle in ["needle-x", "common"] {
            let filter = StoreFilter(messageSearch: [needle])
            let whole = try #require(store.records(filter: filter).overlappingParts())
            #expect(whole.parts.isEmpty, "\(needle): no time slice")
            #expect(whole.whole.flatMap { $0.map(\.chunks.count) } == [1, 1], "\(needle): each chunk a part of its own")
            #expect(try store.records(filter: filter).all() == all.filter { $0.eventMessage.contains(needle) }.sorted { $0.timestamp < $1.timestamp })
        }
        let short = StoreFilter(messageSearch: ["ne"])
        let sliced = try #require(store.records(filter: short).overlappingParts())
        #expect(sliced.parts.count > 1)
        #expect(sliced.whole.isEmpty)
        #expect(try store.records(filter: short).all() == all.filter { $0.eventMessage.contains("ne") }.sorted { $0.timestamp < $1.timestamp })
    }

    /// The open chunk has no timestamp index: a window is answered through the blocks' time
    /// ranges, a record written late (its time long before its neighbours') included.
    @Test func theOpenChunkAnswersAWindowThroughItsBlocks() throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        var records = (0..<3_200).map { LogRecord(timestamp: StoreTestRecords.base + Int64($0) * 1_000, eventMessage: "line \($0)") }
        records.append(LogRecord(timestamp: StoreTestRecords.base + 1_500_500, eventMessage: "written late"))
        try store.append(records)
        let chunk = try #require(store.info.chunks.first)
        #expect(!chunk.sealed)
        let database = try Database(path: store.chunkPath(chunk.file), options: .init(readOnly: true))
        let window = StoreFilter(start: StoreTestRecords.base + 1_500_000, end: StoreTestRecords.base + 1_600_000)
        let built = try condition(window, database)
        #expect(built.readsThroughBlocks)
        let expected = records.filter { $0.timestamp >= window.start! && $0.timestamp < window.end! }.sorted { $0.timestamp < $1.timestamp }
        #expect(expected.count == 101)
        #expect(try store.records(filter: window).all() == expected)
        #expect(try store.count(filter: window) == 101)
        // Most of the chunk: read in order instead.
        let wide = StoreFilter(start: StoreTestRecords.base + 100_000)
        #expect(try !condition(wide, database).readsThroughBlocks)
        #expect(try store.records(filter: wide).all().count == records.filter { $0.timestamp >= wide.start! }.count)
        // Sealed, the chunk's timestamp index serves the window; the blocks do not.
        try store.rotate()
        let sealed = try Database(path: store.chunkPath(chunk.file), options: .init(readOnly: true))
        #expect(try !condition(window, sealed).readsThroughBlocks)
        #expect(try store.records(filter: window).all() == expected)
    }
}

extension ChunkCondition {
    /// Whether the condition narrows the rows through the chunk's blocks: their candidate ids, or
    /// the ids their record masks left (bound as a JSON array).
    var readsThroughBlocks: Bool {
        sql.contains(MessageBlocks.table) || sql.contains("json_each(?)")
    }
}
