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
enum MessageBlocks {
    static let table = StoreLayout.messageBlocksTable
    static let create = """
        CREATE TABLE IF NOT EXISTS \(table) (block INTEGER PRIMARY KEY, oldest INTEGER NOT NULL, newest INTEGER NOT NULL,
                                             bits BLOB NOT NULL)
        """
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
    static func add(_ message: UnsafeBufferPointer<UInt8>, to words: UnsafeMutablePointer<UInt64>) {
        guard message.count >= 3 else { return }
        if message.contains(where: { $0 >= 0x80 }) {
            // Folded text has no ASCII capital left: lowering it again below changes nothing.
            let folded = Array(MessageSearchIndex.fold(String(decoding: message, as: UTF8.self)).utf8)
            folded.withUnsafeBufferPointer { addLowered($0, to: words) }
        } else {
            addLowered(message, to: words)
        }
    }

    /// The trigrams of `message` with its ASCII capitals lowered, on the bytes.
    private static func addLowered(_ message: UnsafeBufferPointer<UInt8>, to words: UnsafeMutablePointer<UInt64>) {
        let count = message.count
        guard count >= 3 else { return }
        var a = lower(message[0]), b = lower(message[1])
        var index = 2
        while index < count {
            let c = lower(message[index])
            let position = bit(a, b, c)
            words[position >> 6] |= 1 << UInt64(position & 63)
            a = b
            b = c
            index += 1
        }
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
    /// candidate block's 64 ids, looked up by id. Its bindings are `query.bindings`.
    static func candidateCondition(_ query: BlockQuery) -> String {
        """
        id IN (WITH RECURSIVE candidate(value, last) AS (
          SELECT block << \(idShift), (block << \(idShift)) | \((1 << idShift) - 1) FROM \(table)
          WHERE \(query.whereSQL)
          UNION ALL SELECT value + 1, last FROM candidate WHERE value < last)
        SELECT value FROM candidate)
        """
    }

    /// Whether few enough of the chunk's blocks are candidates for `query` (`selectiveFraction`)
    /// for `candidateCondition` to beat a scan; false when the chunk cannot tell.
    static func isSelective(_ query: BlockQuery, in database: Database) -> Bool {
        do {
            let statement = try database.prepare("SELECT count(*), sum(\(query.whereSQL)) FROM \(table)")
            try statement.bind(query.bindings)
            guard try statement.step() else { return false }
            let total = statement.int64(at: 0), candidates = statement.int64(at: 1)
            return total > 0 && candidates * Int64(selectiveFraction) <= total
        } catch {
            return false
        }
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
    private var block: Int64 = -1
    private var dirty = false
    private var oldest = Int64.max
    private var newest = Int64.min
    private let words = UnsafeMutablePointer<UInt64>.allocate(capacity: MessageBlocks.wordCount)

    init(_ database: Database) throws {
        load = try database.prepare("SELECT oldest, newest, bits FROM \(MessageBlocks.table) WHERE block = ?")
        save = try database.prepare("INSERT OR REPLACE INTO \(MessageBlocks.table) (block, oldest, newest, bits) VALUES (?, ?, ?, ?)")
        words.initialize(repeating: 0, count: MessageBlocks.wordCount)
    }

    deinit { words.deallocate() }

    /// Adds the row `id`'s time and message (inside the caller's transaction).
    @inline(__always)
    func add(id: Int64, timestamp: Int64, message: UnsafeBufferPointer<UInt8>) throws {
        let rowBlock = id >> MessageBlocks.idShift
        if rowBlock != block { try move(to: rowBlock) }
        MessageBlocks.add(message, to: words)
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
        // Bit p is bit p % 8 of byte p / 8, as the reader tests it: the words little-endian.
        let bytes = [UInt8](unsafeUninitializedCapacity: MessageBlocks.byteCount) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            for index in 0..<MessageBlocks.wordCount {
                raw.storeBytes(of: words[index].littleEndian, toByteOffset: index * 8, as: UInt64.self)
            }
            count = MessageBlocks.byteCount
        }
        try save.bind(blob: bytes, at: 4)
        _ = try save.step()
        dirty = false
    }

    /// Starts the set of `newBlock`, with what the chunk already holds for it (rows written
    /// before a restart). A stored set of the wrong size is taken as all bits set: the rows it
    /// covered stay found.
    private func move(to newBlock: Int64) throws {
        try flush()
        block = newBlock
        words.update(repeating: 0, count: MessageBlocks.wordCount)
        oldest = .max
        newest = .min
        defer { load.reset() }
        try load.bind(newBlock, at: 1)
        guard try load.step() else { return }
        oldest = load.int64(at: 0)
        newest = load.int64(at: 1)
        let stored = load.blob(at: 2)
        if stored.count == MessageBlocks.byteCount {
            stored.withUnsafeBytes { raw in
                for index in 0..<MessageBlocks.wordCount {
                    words[index] |= UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
                }
            }
        } else {
            words.update(repeating: .max, count: MessageBlocks.wordCount)
        }
        dirty = true
    }
}

@available(*, unavailable)
extension MessageBlockWriter: Sendable {}

/// What a read asks of one chunk's blocks: the trigram positions of the needles its search
/// index does not serve, and its window when the chunk has no timestamp index (the open chunk,
/// closed chunks not sealed yet). A block is a candidate when its set holds every position and
/// its time range meets the window.
struct BlockQuery: Hashable {
    var positions: [UInt8]?
    var start: Int64?
    var end: Int64?

    /// The query of `filter` on a chunk with `tables`; nil when the blocks cannot narrow it.
    init?(filter: StoreFilter, tables: ChunkTables) {
        guard tables.hasMessageBlocks else { return nil }
        let folded = filter.messageSearch.map(MessageSearchIndex.fold).filter { !$0.isEmpty }
        let unserved = tables.hasSearchIndex ? folded.filter { !MessageSearch.usesIndex($0) } : folded
        positions = MessageBlocks.positions(ofNeedles: unserved)
        if !tables.hasTimestampIndex {
            start = filter.start
            end = filter.end
        }
        guard positions != nil || start != nil || end != nil else { return nil }
    }

    /// The condition on a block's row, over `block`, `oldest`, `newest` and `bits`.
    var whereSQL: String {
        var clauses: [String] = []
        if positions != nil { clauses.append("\(MessageBlocks.functionName)(bits, ?)") }
        if start != nil { clauses.append("newest >= ?") }
        if end != nil { clauses.append("oldest < ?") }
        return clauses.joined(separator: " AND ")
    }

    var bindings: [SQLValueConvertible?] {
        var values: [SQLValueConvertible?] = []
        if let positions { values.append(SQLBlob(positions)) }
        if let start { values.append(start) }
        if let end { values.append(end) }
        return values
    }
}
