import DiagModel
import DiagPatterns
import DiagQuery
import DiagStore

/// Rows of a store as the pattern miner needs them, made on a reading thread: each message
/// masked (`MessageMasker`) and its masked form interned, so that the miner's thread looks up
/// each distinct masked message of a block once instead of every message; the level,
/// time, process and subsystem of each row; the message bytes, for the samples.
final class MaskedRowBlock: Sendable {
    /// The block's distinct masked messages, in the order they first appear.
    let masks: [String]
    /// Per row: its masked message's index in `masks`.
    let maskOfRow: [Int32]
    let timestamps: [Int64]
    let levels: [MessageType]
    /// The block's distinct process and subsystem names.
    let names: [String]
    /// Per row: its process's and subsystem's index in `names`, -1 for none.
    let processOfRow: [Int32]
    let subsystemOfRow: [Int32]
    let messageBytes: [UInt8]
    /// Per row: where its message ends in `messageBytes` (it starts where the previous ends).
    let messageEnds: [Int]

    init(_ builder: inout MaskedRowBuilder) {
        masks = builder.masks.strings()
        names = builder.names.strings()
        maskOfRow = builder.maskOfRow
        timestamps = builder.timestamps
        levels = builder.levels
        processOfRow = builder.processOfRow
        subsystemOfRow = builder.subsystemOfRow
        messageBytes = builder.messageBytes
        messageEnds = builder.messageEnds
    }

    var count: Int { maskOfRow.count }
}

/// One row of a `MaskedRowBlock`, as the summaries read it.
struct MaskedRow: PatternRecord {
    let block: MaskedRowBlock
    let row: Int

    var timestamp: Int64 { block.timestamps[row] }
    var messageType: MessageType { block.levels[row] }
    var process: String? { name(block.processOfRow[row]) }
    var subsystem: String? { name(block.subsystemOfRow[row]) }
    var eventMessage: String {
        let start = row == 0 ? 0 : block.messageEnds[row - 1]
        return String(decoding: block.messageBytes[start..<block.messageEnds[row]], as: UTF8.self)
    }

    private func name(_ index: Int32) -> String? {
        index < 0 ? nil : block.names[Int(index)]
    }
}

/// Makes `MaskedRowBlock`s of `rowsPerBlock` rows on a reading thread (`StoreRowBlocks`).
struct MaskedRowBuilder: RowBlockBuilder {
    /// Rows per block: few enough that a block (their messages twice, masked and not) is a
    /// megabyte or so, many enough that a block's distinct messages are few beside its rows.
    static let rowsPerBlock = 4096

    fileprivate var masks = ByteInterner()
    fileprivate var names = ByteInterner()
    fileprivate var maskOfRow: [Int32] = []
    fileprivate var timestamps: [Int64] = []
    fileprivate var levels: [MessageType] = []
    fileprivate var processOfRow: [Int32] = []
    fileprivate var subsystemOfRow: [Int32] = []
    fileprivate var messageBytes: [UInt8] = []
    fileprivate var messageEnds: [Int] = []
    private var masked: [UInt8] = []

    init() {}

    mutating func add(_ row: StoredRow) throws -> MaskedRowBlock? {
        levels.append(try row.messageType())
        timestamps.append(row.timestamp)
        row.withMessageUTF8 { bytes in
            messageBytes.append(contentsOf: bytes)
            messageEnds.append(messageBytes.count)
            MessageMasker.mask(utf8: bytes, into: &masked)
        }
        maskOfRow.append(masks.index(of: masked))
        processOfRow.append(row.withProcessUTF8 { $0.map { names.index(of: $0) } ?? -1 })
        subsystemOfRow.append(row.withSubsystemUTF8 { $0.map { names.index(of: $0) } ?? -1 })
        return maskOfRow.count >= Self.rowsPerBlock ? flush() : nil
    }

    mutating func flush() -> MaskedRowBlock? {
        guard !maskOfRow.isEmpty else { return nil }
        let block = MaskedRowBlock(&self)
        masks.removeAll()
        names.removeAll()
        maskOfRow.removeAll(keepingCapacity: true)
        timestamps.removeAll(keepingCapacity: true)
        levels.removeAll(keepingCapacity: true)
        processOfRow.removeAll(keepingCapacity: true)
        subsystemOfRow.removeAll(keepingCapacity: true)
        messageBytes.removeAll(keepingCapacity: true)
        messageEnds.removeAll(keepingCapacity: true)
        return block
    }
}
