import DiagModel
import DiagStore
import Dispatch
import Foundation

/// Turns the rows of one part of a store into blocks of a caller's own form, on the thread
/// that reads the part: what a reader that needs a few columns of every row (the pattern
/// miner) does there, instead of decoding whole records on the consumer's thread.
public protocol RowBlockBuilder: SendableMetatype {
    associatedtype Block: Sendable
    /// One builder per reading thread, kept across that thread's parts.
    init()
    /// Adds the row; returns a block when one is full.
    mutating func add(_ row: StoredRow) throws -> Block?
    /// The rows added since the last block, if any.
    mutating func flush() -> Block?
}

/// The rows of one store (or of the store of one bundle) selected by a query, handed over in
/// blocks made on several threads (`RowBlockBuilder`), in the store's order: the consumer sees
/// the blocks of a single thread's read, whatever the number of threads.
///
/// Not thread-safe: use from one task (it runs its own threads inside `forEachBlock`).
public final class StoreRowBlocks {
    private let cursor: RecordCursor
    private let messageResidual: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?
    /// Keeps an opened bundle's store readable until the scan ends.
    private let bundle: (any OpenedBundleStore)?

    init(cursor: RecordCursor, messageResidual: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?, bundle: (any OpenedBundleStore)?) {
        self.cursor = cursor
        self.messageResidual = messageResidual
        self.bundle = bundle
    }

    /// Blocks waiting in one part's hand-over before its reader waits for the consumer.
    static let blocksPerPart = 4

    /// Every selected row, through a `Builder` per thread, handed to `body` block by block in
    /// the store's order. With `threads` above 1 and chunks apart in time
    /// (`RecordCursor.disjointParts`), parts are read at once, at most `threads + 1` parts ahead
    /// of the one `body` is given and `blocksPerPart` blocks each, so memory stays flat.
    /// A damaged row ends the scan after the rows before it, with its error.
    public func forEachBlock<Builder: RowBlockBuilder>(
        threads: Int, _ builder: Builder.Type, _ body: (Builder.Block) throws -> Void
    ) throws {
        // Sealed chunks overlapping in time are time slices read in order too; unsealed chunks
        // (and a limit) would need a merge of the blocks, which a builder's blocks cannot be.
        guard threads > 1, let parts = cursor.disjointParts(threads: threads)
                ?? cursor.overlappingParts(threads: threads, merging: false)?.parts
        else {
            var builder = Builder()
            try Self.read(cursor, messageResidual, &builder) { try body($0) }
            return
        }
        var tasks: [[RecordCursorPart]] = []
        for part in parts {
            if let last = tasks.last?.last, last.task == part.task { tasks[tasks.count - 1].append(part) } else { tasks.append([part]) }
        }
        try ParallelRowBlocks<Builder>(tasks: tasks, threads: threads, messageResidual: messageResidual).run(body)
    }

    /// Reads the cursor's selected rows into `builder`, emitting each block it makes.
    static func read<Builder: RowBlockBuilder>(
        _ cursor: RecordCursor, _ messageResidual: ((UnsafeBufferPointer<UInt8>) -> Bool)?, _ builder: inout Builder,
        _ emit: (Builder.Block) throws -> Void
    ) throws {
        do {
            while let row = try cursor.nextRow() {
                if let messageResidual, !row.withMessageUTF8(messageResidual) { continue }
                if let block = try builder.add(row) { try emit(block) }
            }
        } catch let error as StoreError {
            if let block = builder.flush() { try emit(block) }
            throw QueryError(error: error)
        } catch {
            // The rows read so far are left in the builder, which the next part must not get.
            _ = builder.flush()
            throw error
        }
        if let block = builder.flush() { try emit(block) }
    }
}

@available(*, unavailable)
extension StoreRowBlocks: Sendable {}

/// Tasks of parts read on several threads: task i's blocks go through channel i (bounded), and
/// the consumer drains the channels in order. A thread takes a task only when it is at most
/// `threads + 1` tasks ahead of the one being consumed.
private struct ParallelRowBlocks<Builder: RowBlockBuilder> {
    let tasks: [[RecordCursorPart]]
    let threads: Int
    let messageResidual: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?

    func run(_ body: (Builder.Block) throws -> Void) throws {
        let messageResidual = messageResidual
        try OrderedParallelParts<Builder.Block, Builder>(
            tasks: tasks, threads: threads, window: threads + 1, channelCapacity: StoreRowBlocks.blocksPerPart
        ).run(makeWorker: { Builder() }, read: { builder, cursor, emit in
            try StoreRowBlocks.read(cursor, messageResidual, &builder, emit)
        }, consume: body)
    }
}

extension LogQuery {
    /// The selected rows of `sources` when they are one store directory or one bundle and the
    /// condition's residual, if any, reads only the message; nil otherwise (then `open` is the way).
    public func openStoreRowBlocks(_ sources: [QuerySource], bundleOpener: (any BundleOpener)?) throws -> StoreRowBlocks? {
        guard sources.count == 1 else { return nil }
        if let condition, condition.residual != nil, condition.messageResidual == nil { return nil }
        let residual = condition?.residual == nil ? nil : condition?.messageResidual
        switch sources[0] {
        case .store(let url):
            let cursor = try StoreRecordStream.cursor(store: url, selection: selection, condition: condition)
            return StoreRowBlocks(cursor: cursor, messageResidual: residual, bundle: nil)
        case .bundle(let path):
            guard let bundleOpener else { return nil }
            let opened = try bundleOpener.openStore(inBundle: path)
            let cursor = try StoreRecordStream.cursor(store: opened.storeURL, selection: selection, condition: condition)
            return StoreRowBlocks(cursor: cursor, messageResidual: residual, bundle: opened)
        default:
            return nil
        }
    }
}
