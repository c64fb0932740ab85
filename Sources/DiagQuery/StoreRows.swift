import DiagModel
import DiagOutput
import DiagStore
import Dispatch
import Foundation
import Synchronization

/// The rows of one store that match a query, written as NDJSON straight from the columns,
/// without decoding records (`diag show --style ndjson`). The residual is checked on the
/// message column alone, so this path exists only when the residual reads nothing else
/// (`QueryCondition.messageResidual`).
///
/// Not thread-safe: use from one task (it runs its own threads inside `writeNDJSON`).
public final class StoreRows {
    private let cursor: RecordCursor
    private let messageResidual: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?
    /// The opened bundle whose store the cursor reads, kept readable while the rows are.
    private let bundle: (any OpenedBundleStore)?
    /// Bytes of NDJSON per block handed over.
    static let blockSize = 128 * 1024

    init(cursor: RecordCursor, messageResidual: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?, bundle: (any OpenedBundleStore)? = nil) {
        self.cursor = cursor
        self.messageResidual = messageResidual
        self.bundle = bundle
    }

    /// Every matching row as a line of NDJSON (the bytes `LogRecord.writeJSON` writes, and a
    /// newline), in time order, handed to `body` in blocks of whole lines with their number of
    /// records: `writeLines(style: .ndjson, …)`.
    public func writeNDJSON(threads: Int, offsets: @escaping @Sendable () -> (Int64) -> Int, _ body: ([UInt8], Int) throws -> Void) throws {
        try writeLines(style: .ndjson, threads: threads, offsets: offsets) { lines, count, _ in try body(lines, count) }
    }

    /// Every matching row as a line of `style` (NDJSON straight from the columns, or a text
    /// style's line of the decoded record: the bytes `RecordPrinter.write` writes), in time
    /// order, handed to `body` in blocks of whole lines with their number of records and what
    /// they count for in the default style's summary (text styles only). `offsets` makes a
    /// function giving the zone's UTC offset at a time, one per thread. With `threads` above 1
    /// and chunks apart in time (`RecordCursor.disjointParts`), that many chunks are read and
    /// formatted at once, each through a bounded hand-over, so memory stays flat; the output is
    /// the same. Chunks that overlap in time or are not sealed are read so too
    /// (`RecordCursor.overlappingParts`, `MergedParallelBlocks`). A damaged row ends the output
    /// after the records before it, with its error.
    public func writeLines(style: RowLineStyle, threads: Int, offsets: @escaping @Sendable () -> (Int64) -> Int,
                           _ body: ([UInt8], Int, SummaryCounts) throws -> Void) throws {
        if threads > 1, let parts = cursor.disjointParts(threads: threads) {
            try ParallelBlocks(parts: parts, threads: threads, messageResidual: messageResidual, style: style, offsets: offsets).run(body)
        } else if threads > 1, let plan = cursor.overlappingParts(threads: threads) {
            // Chunks overlapping in time, or unsealed (diagd's open chunk, closed chunks not
            // sealed yet), or a limit: sliced and merged by time, the same output.
            try MergedParallelBlocks(plan: plan, threads: threads, messageResidual: messageResidual, style: style, offsets: offsets).run(body)
        } else {
            try Self.format(cursor, messageResidual, style, offsets()) { (block: NDJSONBlock) in try body(block.bytes, block.count, block.kinds) }
        }
    }

    /// Formats the cursor's matching rows into blocks for `emit` (plain blocks, or blocks that
    /// keep each line's place for a merge: `NDJSONLines`).
    static func format<Block: NDJSONLines>(
        _ cursor: RecordCursor, _ messageResidual: ((UnsafeBufferPointer<UInt8>) -> Bool)?, _ style: RowLineStyle,
        _ offset: (Int64) -> Int, _ emit: (Block) throws -> Void
    ) throws {
        var block = Block()
        block.bytes.reserveCapacity(blockSize + 8192)
        var scratch = ByteWriter(capacity: 4096)
        var json: [UInt8] = []
        do {
            while let row = try cursor.nextRow() {
                if let messageResidual, !row.withMessageUTF8(messageResidual) { continue }
                let start = block.bytes.count
                let kind: SummaryKind
                do {
                    switch style {
                    case .ndjson:
                        try row.appendJSON(offsetSeconds: offset(row.timestamp), to: &block.bytes, scratch: &scratch)
                        block.bytes.append(UInt8(ascii: "\n"))
                        kind = .default
                    case .json:
                        json.removeAll(keepingCapacity: true)
                        try row.appendJSON(offsetSeconds: offset(row.timestamp), to: &json, scratch: &scratch)
                        block.bytes.append(UInt8(ascii: ","))
                        PrettyJSON.append(json, to: &block.bytes)
                        kind = .default
                    case .text(let format):
                        let record = try row.lineRecord()
                        format.append(record, offset: offset(record.timestamp), to: &block.bytes)
                        kind = SummaryKind(record)
                    }
                } catch {
                    block.bytes.removeSubrange(start...)
                    throw error
                }
                block.lineEnded(row, kind: kind)
                if block.bytes.count >= blockSize {
                    try emit(block)
                    block.removeAll()
                }
            }
        } catch let error as StoreError {
            if block.count > 0 { try emit(block) }
            throw QueryError(error: error)
        }
        if block.count > 0 { try emit(block) }
    }
}

/// How `StoreRows` writes a row: as NDJSON from the columns, or as a text style's line of the
/// decoded record.
public enum RowLineStyle: Sendable {
    case ndjson
    /// The json style's array elements: each record's indented object after a comma
    /// (`RecordPrinter.writeJSONElements` makes the first comma the array's bracket).
    case json
    case text(RecordLineFormat)
}

/// A block of NDJSON lines as `StoreRows.format` fills it: the bytes, and what it keeps of each
/// line once written (its newline included).
protocol NDJSONLines: Sendable {
    init()
    var bytes: [UInt8] { get set }
    /// Lines in the block.
    var count: Int { get }
    /// `kind`: what the line counts for in the default style's summary.
    mutating func lineEnded(_ row: StoredRow, kind: SummaryKind)
    /// Empties the block, keeping its capacity.
    mutating func removeAll()
}

@available(*, unavailable)
extension StoreRows: Sendable {}

/// Lines and how many records they hold, and of which kinds.
struct NDJSONBlock: NDJSONLines {
    var bytes: [UInt8] = []
    var count = 0
    var kinds = SummaryCounts()

    mutating func lineEnded(_ row: StoredRow, kind: SummaryKind) {
        count += 1
        kinds.add(kind)
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        count = 0
        kinds = SummaryCounts()
    }
}

/// Chunks apart in time formatted on several threads: task i (its parts, one after the other)
/// goes through channel i, and the caller drains the channels in order, so the output is the
/// one of a single thread.
private struct ParallelBlocks {
    /// The parts grouped by task, in order (`RecordCursorPart.task`).
    let tasks: [[RecordCursorPart]]
    let threads: Int
    let messageResidual: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?
    let style: RowLineStyle
    let offsets: @Sendable () -> (Int64) -> Int

    init(parts: [RecordCursorPart], threads: Int, messageResidual: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?,
         style: RowLineStyle, offsets: @escaping @Sendable () -> (Int64) -> Int) {
        var tasks: [[RecordCursorPart]] = []
        for part in parts {
            if let last = tasks.last?.last, last.task == part.task { tasks[tasks.count - 1].append(part) } else { tasks.append([part]) }
        }
        self.tasks = tasks
        self.threads = threads
        self.messageResidual = messageResidual
        self.style = style
        self.offsets = offsets
    }

    /// Bytes of NDJSON waiting in all channels together, at most (issue 13, item 6): each of
    /// the `window` tasks ahead may hold its share; a thread whose task's share is full waits
    /// for the writer (and so does a slow reader on the pipe hold every thread), whatever the
    /// size of the records or of a task.
    static let bufferedBytes = 24 << 20

    /// Blocks one task's channel holds: its share of `bufferedBytes`, at least two.
    static func channelCapacity(window: Int) -> Int {
        max(2, bufferedBytes / (window * StoreRows.blockSize))
    }

    func run(_ body: ([UInt8], Int, SummaryCounts) throws -> Void) throws {
        let window = threads + 1
        let (messageResidual, style, offsets) = (messageResidual, style, offsets)
        try OrderedParallelParts<NDJSONBlock, ZoneOffset>(
            tasks: tasks, threads: threads, window: window, channelCapacity: Self.channelCapacity(window: window)
        ).run(makeWorker: { ZoneOffset(offsets()) }, read: { zone, cursor, emit in
            try StoreRows.format(cursor, messageResidual, style, zone.offset, emit)
        }, consume: { block in try body(block.bytes, block.count, block.kinds) })
    }
}

/// A thread's zone-offset function, in a struct: passed as the generic `Worker` itself, a
/// closure came back from each `inout` round trip wrapped in one more reabstraction thunk, so
/// that after a few hundred tasks every row's offset went through hundreds of calls (the scan
/// of 2M records took 9.1 s of CPU instead of 5.2 s).
struct ZoneOffset {
    let offset: (Int64) -> Int

    init(_ offset: @escaping (Int64) -> Int) {
        self.offset = offset
    }
}

extension LogQuery {
    /// The rows of `sources` when they are one store directory, or one bundle (its store as
    /// `bundleOpener` unpacked and admitted it), and the condition's residual, if any, reads only
    /// the message; nil otherwise (then `open` is the way).
    public func openStoreRows(_ sources: [QuerySource], bundleOpener: (any BundleOpener)? = nil) throws -> StoreRows? {
        guard sources.count == 1 else { return nil }
        if let condition, condition.residual != nil, condition.messageResidual == nil { return nil }
        let url: URL
        var opened: (any OpenedBundleStore)?
        switch sources[0] {
        case .store(let store):
            url = store
        case .bundle(let path):
            guard let bundleOpener else { return nil }
            let bundle = try bundleOpener.openStore(inBundle: path)
            url = bundle.storeURL
            opened = bundle
        case .file, .appleLog:
            return nil
        }
        let cursor = try StoreRecordStream.cursor(store: url, selection: selection, condition: condition)
        return StoreRows(cursor: cursor, messageResidual: condition?.residual == nil ? nil : condition?.messageResidual, bundle: opened)
    }
}
