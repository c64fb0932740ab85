import CSQLite
import DiagModel

/// The writer's own message search filter: for every block of 64 consecutive record ids, a
/// 4,096-bit set of the byte trigrams of its folded messages (folded as the search index
/// folds them, `MessageSearchIndex.fold`), one bit per trigram by a multiplicative hash.
///
/// It exists for the records the trigram index does not cover yet. That index (FTS5) costs about
/// 14 µs a record to build, so it is built off the ingest path, after a chunk is sealed, and
/// on a busy diagd the open chunk and the closed chunks waiting for it were scanned by every
/// `CONTAINS` (Benchmarks/userpath.sh at 1M records through diagd: 4× `rg -i` for a rare
/// needle, every record of the open chunk read and folded). The blocks are built by the
/// writer in the same transaction as the rows, at a fraction of a microsecond a record, so a
/// reader sees every committed row covered, open chunk included.
///
/// A needle's trigrams are a subset of a message's when the folded message contains the folded
/// needle (their UTF-8 bytes are a substring), so a block whose set lacks a bit of the needle
/// holds no match: the filter keeps a superset of the records, as the index does, and the
/// caller decides each row. Rows removed later (expiry, erase, a snapshot's trim) only make a
/// block's set a larger superset.
///
/// Table: `message_blocks(block INTEGER PRIMARY KEY, oldest, newest, bits BLOB NOT NULL)`,
/// `block` = id >> 6, `oldest`/`newest` the block's time range (which serves a window on a chunk
/// without the timestamp index, `BlockQuery`).
/// A chunk holds it only if every row it has was written with it (`ChunkWriter` creates it in an
/// empty chunk only), so its absence means "scan", never "no match". A set that is not exactly
/// `byteCount` bytes (a chunk from elsewhere) may hold anything: `diag_block_may_contain` keeps
/// its block.
///
/// Beside it, `message_record_masks(block INTEGER PRIMARY KEY, masks BLOB NOT NULL)`: for each
/// block, one 128-bit mask per record (id & 63), each the record's trigrams at bit
/// `position & 127`, stored as two little-endian `UInt64`s (bits 0–63, then 64–127): 1,024
/// bytes a block. A candidate block's records are narrowed by them (`appendIDs`), so a
/// rare needle reads its few records instead of 64 per block: 8,000 rows read for 126 matches
/// in a chunk of 205,000 records through diagd, 16 ms of a rare `CONTAINS`'s 17 ms there.
/// 128 bits rather than 64: a generated message sets three quarters of 64 bits, so a common
/// phrase (13 trigrams, 10 distinct bits of 64) let through 22,879 records of such a chunk
/// for its 10,331 matches, all read and folded; with 128 bits (half of them set) 10,545.
/// Masks of 64 bits (512 bytes a block, `position & 63`), which the first writer wrote, are
/// read too. It is written with the sets (a chunk has it only if every row was written with
/// it, and older chunks have the sets without it); a block without its row, or a row of
/// another size, keeps all 64 ids.
enum MessageBlocks {
    static let table = StoreLayout.messageBlocksTable
    static let masksTable = StoreLayout.recordMasksTable
    static let positionsTable = StoreLayout.positionBlocksTable
    static let create = """
        CREATE TABLE IF NOT EXISTS \(table) (block INTEGER PRIMARY KEY, oldest INTEGER NOT NULL, newest INTEGER NOT NULL,
                                             bits BLOB NOT NULL)
        """
    static let createMasks = """
        CREATE TABLE IF NOT EXISTS \(masksTable) (block INTEGER PRIMARY KEY, masks BLOB NOT NULL)
        """
    /// The sets turned around (`buildPositionBlocks`): for trigram position `position`, bit i
    /// (byte i / 8, bit i % 8) of `blocks` is set when block `first + i`'s set holds it, for
    /// the `count` blocks from `first` (`blocks` is (count + 7) / 8 bytes).
    static let createPositions = """
        CREATE TABLE IF NOT EXISTS \(positionsTable) (position INTEGER PRIMARY KEY, first INTEGER NOT NULL,
                                                      count INTEGER NOT NULL, blocks BLOB NOT NULL)
        """
    /// The most blocks a chunk's positions table spans (4M record ids; 8 KiB a position): a
    /// chunk of this store has about 3,700 blocks at its 64 MiB, and one whose ids are spread
    /// further (made elsewhere) keeps the sets alone.
    static let maxPositionSpan: Int64 = 1 << 16
    /// The fewest blocks a chunk's positions table is built for (16,384 record ids; the sets
    /// then take 135 KB, the table about 175 KB): its 4,096 rows cost about 45 KB even for a
    /// chunk of two blocks, and a small chunk's sets are cheap to read anyway. With a table for
    /// every chunk, the store of diagd's size quota test (`--chunk-size 64K --max-size 300K`)
    /// stayed at 635 KB, over the test's bound of 500 KB.
    static let minimumPositionSpan: Int64 = 256
    /// Records per block, and bytes of a block's record masks: 64 × 16 (`maskWords` words a
    /// record); the first writer's masks of one word a record are `narrowMasksByteCount`.
    static let recordsPerBlock = 1 << Int(idShift)
    static let maskWords = 2
    static let masksByteCount = recordsPerBlock * 8 * maskWords
    static let narrowMasksByteCount = recordsPerBlock * 8
    /// Record ids per block: 1 << 6 = 64. Small, so that a needle found in one record of a
    /// thousand leaves few blocks to read (with 512, a third of them held one).
    static let idShift: Int64 = 6
    /// Bits per set: 1 << 12 = 4,096 (512 bytes), 8 bytes a record. 64 generated records hold
    /// about 1,300 distinct trigrams (a quarter of the bits set), so a needle of 10 characters
    /// passes a block that lacks it with a chance of about 10⁻⁶.
    static let bitShift = 12
    static let wordCount = (1 << bitShift) / 64
    static let byteCount = (1 << bitShift) / 8
    /// A block filter is used for a chunk when at most this fraction of its blocks may hold the
    /// needle: past it, reading the candidate rows one by one costs more than a scan in order.
    static let selectiveFraction = 8
    /// With record masks, when at most this fraction of its records may: each is a lookup by
    /// id, and the rows a scan would fold and drop are not read at all.
    static let selectiveRecordFraction = 4

    static let functionName = "diag_block_may_contain"

    @inline(__always) static func bit(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
        let key = UInt32(a) | UInt32(b) << 8 | UInt32(c) << 16
        return Int((key &* 0x9E37_79B1) >> UInt32(32 - bitShift))
    }

    @inline(__always) private static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// Sets the bits of every byte trigram of `message` folded: on the bytes, lowered as it goes,
    /// while the message is ASCII (ASCII folds to itself lowered); through `MessageSearchIndex.fold`
    /// otherwise, as the reader's scan folds it.
    /// Sets in `mask` (`maskWords` words, when given) the record's trigrams at bit
    /// `position & 127`.
    static func add(_ message: UnsafeBufferPointer<UInt8>, to words: UnsafeMutablePointer<UInt64>, mask: UnsafeMutablePointer<UInt64>? = nil) {
        guard message.count >= 3 else { return }
        if !UTF8Validation.isASCII(message) {
            // Folded text has no ASCII capital left: lowering it again below changes nothing.
            let folded = Array(MessageSearchIndex.fold(String(decoding: message, as: UTF8.self)).utf8)
            folded.withUnsafeBufferPointer { addLowered($0, to: words, mask: mask) }
        } else {
            addLowered(message, to: words, mask: mask)
        }
    }

    /// Eight bytes (little-endian) with their ASCII capitals lowered, as `lower` lowers each;
    /// bytes from 0x80 on are left as they are. Within each byte: its low seven bits plus 0x3F
    /// reach 0x80 from "A" on, plus 0x25 from "[" on; no sum carries into the next byte.
    @inline(__always) static func lowerWord(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let low7 = word & ~highBits
        let fromA = low7 &+ ones &* (0x80 - 0x41)
        let pastZ = low7 &+ ones &* (0x80 - 0x5B)
        let capitals = fromA & ~pastZ & ~word & highBits
        return word | capitals >> 2
    }

    /// The trigrams of `message` with its ASCII capitals lowered, on the bytes: eight lowered at
    /// a time (`lowerWord`), the trigram kept as a rolling key (`bit`'s, the newest byte on top),
    /// the record's two mask words chosen by the position's bit 6 with masks, not a branch. The
    /// loop this replaced lowered, widened and combined three bytes for every trigram: 10–13 % of
    /// the store writer alone's samples, against 9–9.5 % (docs/STORE.md, "Chunks written in a
    /// burst").
    private static func addLowered(_ message: UnsafeBufferPointer<UInt8>, to words: UnsafeMutablePointer<UInt64>, mask: UnsafeMutablePointer<UInt64>?) {
        let count = message.count
        guard count >= 3, let base = message.baseAddress else { return }
        // `bit(a, b, c)`'s key with the first two bytes as b and c: the next byte shifts in.
        var key = UInt32(lower(base[0])) << 8 | UInt32(lower(base[1])) << 16
        // The record's mask words, in registers: as a pair in memory, each trigram's store
        // waited for the one before it.
        var low: UInt64 = 0, high: UInt64 = 0
        var cursor = base + 2
        let end = base + count
        while end - cursor >= 8 {
            var lowered = lowerWord(UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self))
            for _ in 0..<8 {
                addTrigram(ending: UInt32(truncatingIfNeeded: lowered & 0xFF), key: &key, words: words, low: &low, high: &high)
                lowered &>>= 8
            }
            cursor += 8
        }
        while cursor < end {
            addTrigram(ending: UInt32(lower(cursor.pointee)), key: &key, words: words, low: &low, high: &high)
            cursor += 1
        }
        if let mask {
            mask[0] |= low
            mask[1] |= high
        }
    }

    /// Shifts `byte` into the trigram `key` and sets the trigram's bit in `words` and in the
    /// record's mask words `low`/`high` (its position's bit 6 picks the word).
    @inline(__always) private static func addTrigram(ending byte: UInt32, key: inout UInt32, words: UnsafeMutablePointer<UInt64>,
                                                     low: inout UInt64, high: inout UInt64) {
        key = key &>> 8 | byte &<< 16
        let position = Int(truncatingIfNeeded: (key &* 0x9E37_79B1) &>> UInt32(32 - bitShift))
        let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: position)
        words[position &>> 6] |= bit
        let highHalf = UInt64(bitPattern: (Int64(truncatingIfNeeded: position) &<< 57) &>> 63)
        high |= bit & highHalf
        low |= bit & ~highHalf
    }

    /// The bit positions of the needles' trigrams (each needle folded again: folding is
    /// idempotent), as the little-endian `UInt16`s `diag_block_may_contain` takes; nil when no
    /// needle has 3 bytes or more once folded. A needle with U+FFFD is left out: it may match
    /// where a message's bytes are not UTF-8, which the reader decides row by row.
    static func positions(ofNeedles needles: [String]) -> [UInt8]? {
        var seen = Set<Int>()
        var blob: [UInt8] = []
        for needle in needles {
            let folded = MessageSearchIndex.fold(needle)
            guard !folded.unicodeScalars.contains("\u{FFFD}") else { continue }
            let bytes = Array(folded.utf8)
            guard bytes.count >= 3 else { continue }
            for index in 2..<bytes.count {
                let position = bit(bytes[index - 2], bytes[index - 1], bytes[index])
                if seen.insert(position).inserted {
                    blob.append(UInt8(position & 0xFF))
                    blob.append(UInt8(position >> 8))
                }
            }
        }
        return blob.isEmpty ? nil : blob
    }

    /// The condition on `records.id` that keeps the rows of the blocks `query` selects: each
    /// candidate block's 64 ids, looked up by id (a chunk with record masks narrows a needle's
    /// blocks to ids instead: `plan`). Its bindings are `query.bindings`.
    static func candidateCondition(_ query: BlockQuery) -> String {
        """
        id IN (WITH RECURSIVE candidate(value, last) AS (
          SELECT block << \(idShift), (block << \(idShift)) | \((1 << idShift) - 1) FROM \(table)
          WHERE \(query.whereSQL)
          UNION ALL SELECT value + 1, last FROM candidate WHERE value < last)
        SELECT value FROM candidate)
        """
    }

    /// How a read uses a chunk's blocks for `query` (`BlockPlan`). With record masks and a
    /// needle: the ids the masks leave, when they are at most `selectiveRecordFraction` of the
    /// chunk's, looked up once here and bound to the read (which then reads no set again);
    /// otherwise the blocks when at most `selectiveFraction` of them are candidates, for
    /// `candidateCondition` to beat a scan. A scan when the chunk cannot tell.
    ///
    /// A sealed chunk's candidate blocks come from its positions table (`buildPositionBlocks`)
    /// when it has one that answers: a row per position of the needle (a few hundred bytes
    /// each) instead of every block's set (1.6 MB for a chunk of 200k records, read by every
    /// query of a chunk not indexed yet). Blocks outside the table's range are asked of the sets.
    static func plan(_ query: BlockQuery, in database: Database) -> BlockPlan {
        do {
            if query.masks, let positions = query.positions {
                let bounds = try database.prepare("SELECT (SELECT min(block) FROM \(table)), (SELECT max(block) FROM \(table))")
                guard try bounds.step(), !bounds.isNull(at: 0) else { return .scan }
                let (low, high) = (bounds.int64(at: 0), bounds.int64(at: 1))
                // Blocks the chunk spans, as ids (a hand-made chunk may span more than Int64).
                let (span, overflow) = high.subtractingReportingOverflow(low)
                let recordLimit = overflow || span >= Int64.max >> idShift ? Int64.max : ((span + 1) << idShift) / Int64(selectiveRecordFraction)
                var json: [UInt8] = [UInt8(ascii: "[")]
                var count: Int64 = 0
                let wanted = positions.withUnsafeBufferPointer(WantedBits.init)
                /// Adds the ids `masks` leave of `block` (its stored masks, if any); false past the limit.
                func add(_ block: Int64, _ masks: UnsafeRawBufferPointer?) -> Bool {
                    count += Int64(appendIDs(block: block, masks: masks, wanted: wanted, to: &json))
                    return count <= recordLimit
                }
                // The blocks the sets are asked about: all of them, or those the positions
                // table does not cover.
                var condition = query.whereSQL
                var bindings = query.bindings
                if query.positionBlocks, query.start == nil, query.end == nil,
                   let candidates = try positionCandidates(positions, in: database) {
                    // One statement for the masks of every candidate block, in block order (the
                    // candidates' order), rather than a lookup each: a common phrase's chunk has
                    // thousands of candidate blocks, and resetting and binding a statement for
                    // each cost as much as reading their masks. A block without its row keeps
                    // its 64 ids.
                    var list: [UInt8] = [UInt8(ascii: "[")]
                    for block in candidates.blocks {
                        if list.count > 1 { list.append(UInt8(ascii: ",")) }
                        Digits.append(block, to: &list)
                    }
                    list.append(UInt8(ascii: "]"))
                    let masks = try database.prepare("""
                        SELECT block, masks FROM \(masksTable) WHERE block IN (SELECT value FROM json_each(?)) ORDER BY block
                        """)
                    try masks.bind(String(decoding: list, as: UTF8.self), at: 1)
                    var stored = try masks.step()
                    for block in candidates.blocks {
                        while stored, masks.int64(at: 0) < block { stored = try masks.step() }
                        if stored, masks.int64(at: 0) == block {
                            guard masks.withBlobIfBlob(at: 1, { add(block, $0) }) else { return .scan }
                            stored = try masks.step()
                        } else {
                            guard add(block, nil) else { return .scan }
                        }
                    }
                    condition = "(block < ? OR block >= ?) AND " + condition
                    bindings = [candidates.first, candidates.end] + bindings
                }
                let statement = try database.prepare("""
                    SELECT block, (SELECT masks FROM \(masksTable) WHERE \(masksTable).block = \(table).block)
                    FROM \(table) WHERE \(condition)
                    """)
                try statement.bind(bindings)
                while try statement.step() {
                    guard statement.withBlobIfBlob(at: 1, { add(statement.int64(at: 0), $0) }) else { return .scan }
                }
                json.append(UInt8(ascii: "]"))
                return .ids(String(decoding: json, as: UTF8.self))
            }
            // Only the blocks from the first one the read wants (`firstBlock`): the rows of a
            // rowid range, not the whole table.
            let statement = try database.prepare("SELECT count(*), sum(\(query.whereSQL)) FROM \(table)\(query.firstBlock == nil ? "" : " WHERE block >= ?")")
            try statement.bind(query.bindings + (query.firstBlock.map { [$0] } ?? []))
            guard try statement.step() else { return .scan }
            let total = statement.int64(at: 0), candidates = statement.int64(at: 1)
            return total > 0 && candidates * Int64(selectiveFraction) <= total ? .blocks : .scan
        } catch {
            return .scan
        }
    }

    /// Removes the sets and record masks of the blocks that hold no record any more (a
    /// snapshot's chunk trimmed to its window): they cover nothing, and they are not small (a
    /// bundle bounded by `--size` kept 1.5 KB of them for every 64 records it had left out).
    /// The blocks that keep a record keep their sets and masks, a superset of what they hold.
    /// A positions table is built again from the sets that are left (when they are enough).
    static func removeEmptyBlocks(_ database: Database, tables: ChunkTables) throws {
        for (name, present) in [(table, tables.hasMessageBlocks), (masksTable, tables.hasRecordMasks)] where present {
            try database.execute("""
                DELETE FROM \(name) WHERE NOT EXISTS (SELECT 1 FROM records
                  WHERE id BETWEEN \(name).block << \(idShift) AND (\(name).block << \(idShift)) | \((1 << idShift) - 1))
                """)
        }
        if tables.hasPositionBlocks { try buildPositionBlocks(database) }
    }

    /// `diag_block_may_contain(bits, positions)`: 0 when `bits` is a set of `byteCount` bytes
    /// that lacks one of the positions; 1 otherwise (a set of another size may hold anything).
    static func register(on connection: OpaquePointer) {
        sqlite3_create_function_v2(
            connection, functionName, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil,
            { context, count, arguments in
                guard count == 2, let arguments else { return sqlite3_result_int(context, 1) }
                sqlite3_result_int(context, MessageBlocks.mayContain(arguments[0], arguments[1]) ? 1 : 0)
            }, nil, nil, nil)
    }

    /// The bits the positions of a needle want of a record's mask: of 128 bits (low and high
    /// words, bit `position & 127`) and of the first writer's 64 (`position & 63`).
    struct WantedBits {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var narrow: UInt64 = 0

        /// `pairs`: the positions as `positions(ofNeedles:)` writes them (little-endian `UInt16`s).
        init(_ pairs: UnsafeBufferPointer<UInt8>) {
            for index in 0..<pairs.count / 2 {
                let bit: UInt64 = 1 << UInt64(pairs[2 * index] & 63)
                if pairs[2 * index] & 64 == 0 { low |= bit } else { high |= bit }
                narrow |= bit
            }
        }
    }

    /// Appends to `json` (an array being written: `[` and the ids so far) the ids of `block`
    /// whose mask in `masks` holds every wanted bit; every id of the block when `masks` is of
    /// neither size (or nil: a block without its row), and none when no id falls in the block
    /// (past ±2⁵⁷). Returns how many it appended.
    @discardableResult
    static func appendIDs(block: Int64, masks: UnsafeRawBufferPointer?, wanted: WantedBits, to json: inout [UInt8]) -> Int {
        let first = block << idShift
        guard first >> idShift == block else { return 0 }
        var words = 0
        switch masks?.count {
        case masksByteCount: words = maskWords
        case narrowMasksByteCount: words = 1
        default: break
        }
        let stored = words == 0 ? nil : masks?.baseAddress
        var appended = 0
        for record in 0..<recordsPerBlock {
            if let stored {
                let low = UInt64(littleEndian: stored.loadUnaligned(fromByteOffset: record * 8 * words, as: UInt64.self))
                if words == 1 {
                    guard low & wanted.narrow == wanted.narrow else { continue }
                } else {
                    let high = UInt64(littleEndian: stored.loadUnaligned(fromByteOffset: record * 8 * words + 8, as: UInt64.self))
                    guard low & wanted.low == wanted.low, high & wanted.high == wanted.high else { continue }
                }
            }
            if json.count > 1 { json.append(UInt8(ascii: ",")) }
            Digits.append(first + Int64(record), to: &json)
            appended += 1
        }
        return appended
    }

    /// Turns the chunk's sets around into the positions table (replacing any it had): for each
    /// of the 4,096 positions, one row whose bit i says whether block `first + i`'s set holds
    /// it, for the `count` blocks from the chunk's first to its last. Run inside the seal's transaction, once no record is written to the chunk any more;
    /// a writer that opens the chunk again drops it (`ChunkWriter`). A set of another size than
    /// `byteCount` sets its block's bit in every row, as `diag_block_may_contain` keeps it. No
    /// table for a chunk without sets and masks, spanning fewer than `minimumBlocks` blocks, or
    /// more than `maxPositionSpan`: its reads ask the sets, as before.
    static func buildPositionBlocks(_ database: Database, minimumBlocks: Int64 = minimumPositionSpan) throws {
        try database.execute("DROP TABLE IF EXISTS \(positionsTable)")
        let tables = try ChunkTables(database)
        guard tables.hasMessageBlocks, tables.hasRecordMasks else { return }
        let bounds = try database.prepare("SELECT min(block), max(block) FROM \(table)")
        guard try bounds.step(), !bounds.isNull(at: 0) else { return }
        let first = bounds.int64(at: 0)
        let (span, overflow) = bounds.int64(at: 1).subtractingReportingOverflow(first)
        guard !overflow, span < maxPositionSpan, span + 1 >= minimumBlocks else { return }
        let stride = Int(span + 8) / 8
        let positionCount = 1 << bitShift
        var columns = [UInt8](repeating: 0, count: positionCount * stride)
        let rows = try database.prepare("SELECT block, bits FROM \(table)")
        while try rows.step() {
            let offset = Int(rows.int64(at: 0) - first)
            let byte = offset >> 3, bit = UInt8(1) << UInt8(offset & 7)
            let set = rows.blobIfBlob(at: 1) ?? []
            columns.withUnsafeMutableBufferPointer { columns in
                guard set.count == byteCount else {
                    for position in 0..<positionCount { columns[position * stride + byte] |= bit }
                    return
                }
                set.withUnsafeBytes { raw in
                    for index in 0..<wordCount {
                        var word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
                        while word != 0 {
                            columns[(index * 64 + word.trailingZeroBitCount) * stride + byte] |= bit
                            word &= word - 1
                        }
                    }
                }
            }
        }
        try database.execute(createPositions)
        let insert = try database.prepare("INSERT INTO \(positionsTable) (position, first, count, blocks) VALUES (?, ?, ?, ?)")
        for position in 0..<positionCount {
            insert.reset()
            try insert.bind(Int64(position), at: 1)
            try insert.bind(first, at: 2)
            try insert.bind(span + 1, at: 3)
            try insert.bind(blob: Array(columns[position * stride..<(position + 1) * stride]), at: 4)
            _ = try insert.step()
        }
    }

    /// The blocks whose sets hold every one of `positions`, from the positions table, and the
    /// range of blocks the table covers (`first..<end`); nil when the table cannot answer (a
    /// position without its row; rows of other ranges, sizes or types: a chunk made elsewhere),
    /// and the sets answer instead.
    static func positionCandidates(_ positions: [UInt8], in database: Database) throws -> (blocks: [Int64], first: Int64, end: Int64)? {
        let statement = try database.prepare("SELECT first, count, blocks FROM \(positionsTable) WHERE position = ?")
        var range: (first: Int64, count: Int64)?
        var candidates: [UInt8] = []
        for index in 0..<positions.count / 2 {
            statement.reset()
            try statement.bind(Int64(positions[2 * index]) | Int64(positions[2 * index + 1]) << 8, at: 1)
            guard try statement.step(), case .int(let rowFirst) = statement.value(at: 0),
                  case .int(let rowCount) = statement.value(at: 1), let blocks = statement.blobIfBlob(at: 2) else { return nil }
            let row = (first: rowFirst, count: rowCount)
            guard row.count > 0, row.count <= maxPositionSpan, blocks.count == Int(row.count + 7) / 8 else { return nil }
            if let range {
                guard row == range else { return nil }
                for byte in candidates.indices { candidates[byte] &= blocks[byte] }
            } else {
                range = row
                candidates = blocks
            }
        }
        guard let range else { return nil }
        let (end, overflow) = range.first.addingReportingOverflow(range.count)
        guard !overflow else { return nil }
        var blocks: [Int64] = []
        for (index, byte) in candidates.enumerated() where byte != 0 {
            var bits = byte
            while bits != 0 {
                let offset = index * 8 + bits.trailingZeroBitCount
                if offset < range.count { blocks.append(range.first + Int64(offset)) }
                bits &= bits - 1
            }
        }
        return (blocks, range.first, end)
    }

    private static func mayContain(_ bits: OpaquePointer?, _ positions: OpaquePointer?) -> Bool {
        guard sqlite3_value_type(bits) == SQLITE_BLOB, sqlite3_value_type(positions) == SQLITE_BLOB else { return true }
        // `_blob` before `_bytes`, as SQLite asks.
        guard let set = sqlite3_value_blob(bits), sqlite3_value_bytes(bits) == Int32(byteCount) else { return true }
        let wanted = sqlite3_value_blob(positions)
        let wantedCount = Int(sqlite3_value_bytes(positions)) / 2
        guard let wanted, wantedCount > 0 else { return true }
        let bytes = set.assumingMemoryBound(to: UInt8.self)
        let pairs = wanted.assumingMemoryBound(to: UInt8.self)
        for index in 0..<wantedCount {
            let position = (Int(pairs[2 * index]) | Int(pairs[2 * index + 1]) << 8) & ((1 << bitShift) - 1)
            if bytes[position >> 3] & (1 << UInt8(position & 7)) == 0 { return false }
        }
        return true
    }
}

/// The writer's side of `MessageBlocks`: the set of the block being filled, kept in memory and
/// written (inserted or replaced) before each commit, so that the rows and the sets that cover
/// them commit together.
final class MessageBlockWriter {
    private let load: Statement
    private let save: Statement
    /// The record masks' statements, when the chunk has them.
    private let loadMasks: Statement?
    private let saveMasks: Statement?
    private var block: Int64 = -1
    private var dirty = false
    private var oldest = Int64.max
    private var newest = Int64.min
    private let words = UnsafeMutablePointer<UInt64>.allocate(capacity: MessageBlocks.wordCount)
    /// `maskWords` words a record.
    private let recordMasks = UnsafeMutablePointer<UInt64>.allocate(capacity: MessageBlocks.recordsPerBlock * MessageBlocks.maskWords)

    /// `masks`: whether the chunk has the record masks' table.
    init(_ database: Database, masks: Bool) throws {
        load = try database.prepare("SELECT oldest, newest, bits FROM \(MessageBlocks.table) WHERE block = ?")
        save = try database.prepare("INSERT OR REPLACE INTO \(MessageBlocks.table) (block, oldest, newest, bits) VALUES (?, ?, ?, ?)")
        loadMasks = masks ? try database.prepare("SELECT masks FROM \(MessageBlocks.masksTable) WHERE block = ?") : nil
        saveMasks = masks ? try database.prepare("INSERT OR REPLACE INTO \(MessageBlocks.masksTable) (block, masks) VALUES (?, ?)") : nil
        words.initialize(repeating: 0, count: MessageBlocks.wordCount)
        recordMasks.initialize(repeating: 0, count: MessageBlocks.recordsPerBlock * MessageBlocks.maskWords)
    }

    deinit {
        words.deallocate()
        recordMasks.deallocate()
    }

    /// Adds the row `id`'s time and message (inside the caller's transaction).
    @inline(__always)
    func add(id: Int64, timestamp: Int64, message: UnsafeBufferPointer<UInt8>) throws {
        let rowBlock = id >> MessageBlocks.idShift
        if rowBlock != block { try move(to: rowBlock) }
        MessageBlocks.add(message, to: words, mask: recordMasks + Int(id & Int64(MessageBlocks.recordsPerBlock - 1)) * MessageBlocks.maskWords)
        oldest = min(oldest, timestamp)
        newest = max(newest, timestamp)
        dirty = true
    }

    /// Writes the current set (inside the caller's transaction, before it commits).
    func flush() throws {
        guard dirty else { return }
        defer { save.reset() }
        try save.bind(block, at: 1)
        try save.bind(oldest, at: 2)
        try save.bind(newest, at: 3)
        try save.bind(blob: Self.littleEndianBytes(words, count: MessageBlocks.wordCount), at: 4)
        _ = try save.step()
        if let saveMasks {
            defer { saveMasks.reset() }
            try saveMasks.bind(block, at: 1)
            try saveMasks.bind(blob: Self.littleEndianBytes(recordMasks, count: MessageBlocks.recordsPerBlock * MessageBlocks.maskWords), at: 2)
            _ = try saveMasks.step()
        }
        dirty = false
    }

    /// The words as bytes, each little-endian: bit p is bit p % 8 of byte p / 8, as the reader
    /// tests it.
    private static func littleEndianBytes(_ words: UnsafeMutablePointer<UInt64>, count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count * 8) { buffer, written in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            for index in 0..<count {
                raw.storeBytes(of: words[index].littleEndian, toByteOffset: index * 8, as: UInt64.self)
            }
            written = count * 8
        }
    }

    /// ORs stored little-endian words into `words`; a blob of another size sets every bit (what
    /// it covered stays found).
    private static func merge(_ stored: [UInt8], into words: UnsafeMutablePointer<UInt64>, count: Int) {
        guard stored.count == count * 8 else { return words.update(repeating: .max, count: count) }
        stored.withUnsafeBytes { raw in
            for index in 0..<count {
                words[index] |= UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
            }
        }
    }

    /// Starts the set of `newBlock`, with what the chunk already holds for it (rows written
    /// before a restart). A stored set or masks of the wrong size are taken as all bits set: the
    /// rows they covered stay found.
    private func move(to newBlock: Int64) throws {
        try flush()
        block = newBlock
        words.update(repeating: 0, count: MessageBlocks.wordCount)
        recordMasks.update(repeating: 0, count: MessageBlocks.recordsPerBlock * MessageBlocks.maskWords)
        oldest = .max
        newest = .min
        defer { load.reset() }
        try load.bind(newBlock, at: 1)
        guard try load.step() else { return }
        oldest = load.int64(at: 0)
        newest = load.int64(at: 1)
        Self.merge(load.blob(at: 2), into: words, count: MessageBlocks.wordCount)
        if let loadMasks {
            defer { loadMasks.reset() }
            try loadMasks.bind(newBlock, at: 1)
            // A block whose set was stored without masks, or with the first writer's masks of
            // 64 bits: its earlier records match anything.
            let stored = try loadMasks.step() ? loadMasks.blob(at: 0) : []
            Self.merge(stored, into: recordMasks, count: MessageBlocks.recordsPerBlock * MessageBlocks.maskWords)
        }
        dirty = true
    }
}

@available(*, unavailable)
extension MessageBlockWriter: Sendable {}

/// How a read uses one chunk's blocks (`MessageBlocks.plan`): not at all (a scan), through the
/// candidate blocks' ids (`MessageBlocks.candidateCondition`), or through the ids the record
/// masks left, as a JSON array bound to the read.
enum BlockPlan: Hashable, Sendable {
    case scan
    case blocks
    case ids(String)
}

/// What a read asks of one chunk's blocks: the trigram positions of the needles its search
/// index does not serve, and its window when the chunk has no timestamp index (the open chunk,
/// closed chunks not sealed yet). A block is a candidate when its set holds every position and
/// its time range meets the window.
struct BlockQuery: Hashable {
    var positions: [UInt8]?
    var start: Int64?
    var end: Int64?
    /// The first block that may hold a record the read wants (`StoreFilter.afterID`).
    var firstBlock: Int64?
    /// Whether the chunk has the blocks' record masks, and the positions table.
    var masks = false
    var positionBlocks = false

    /// The query of `filter` on a chunk with `tables`; nil when the blocks cannot narrow it.
    init?(filter: StoreFilter, tables: ChunkTables) {
        guard tables.hasMessageBlocks else { return nil }
        masks = tables.hasRecordMasks
        positionBlocks = tables.hasPositionBlocks
        let folded = filter.messageSearch.map(MessageSearchIndex.fold).filter { !$0.isEmpty }
        let unserved = tables.hasSearchIndex ? folded.filter { !MessageSearch.usesIndex($0) } : folded
        positions = MessageBlocks.positions(ofNeedles: unserved)
        if !tables.hasTimestampIndex {
            start = filter.start
            end = filter.end
        }
        // (A count in a stranger's Info.json may be the largest Int64: no block is past it.)
        firstBlock = filter.afterID.map { $0 == .max ? .max : ($0 + 1) >> MessageBlocks.idShift }
        guard positions != nil || start != nil || end != nil else { return nil }
    }

    /// The condition on a block's row, over `block`, `oldest`, `newest` and `bits`.
    var whereSQL: String {
        var clauses: [String] = []
        if firstBlock != nil { clauses.append("block >= ?") }
        if positions != nil { clauses.append("\(MessageBlocks.functionName)(bits, ?)") }
        if start != nil { clauses.append("newest >= ?") }
        if end != nil { clauses.append("oldest < ?") }
        return clauses.joined(separator: " AND ")
    }

    var bindings: [SQLValueConvertible?] {
        var values: [SQLValueConvertible?] = []
        if let firstBlock { values.append(firstBlock) }
        if let positions { values.append(SQLBlob(positions)) }
        if let start { values.append(start) }
        if let end { values.append(end) }
        return values
    }
}
