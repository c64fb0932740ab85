import DiagModel
import DiagOutput
import DiagStore
import Dispatch
import Foundation

/// Lines of NDJSON with each line's end and its row's place in the store's order, so that two
/// streams of them can be merged line by line.
struct KeyedNDJSONBlock: NDJSONLines {
    var bytes: [UInt8] = []
    /// Where each line ends in `bytes` (after its newline).
    var ends: [Int] = []
    var orders: [RowOrder] = []
    /// Each line's `SummaryKind`.
    var kinds: [UInt8] = []
    var count: Int { ends.count }

    mutating func lineEnded(_ row: StoredRow, kind: SummaryKind) {
        ends.append(bytes.count)
        orders.append(row.order)
        kinds.append(kind.rawValue)
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        orders.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
    }

    /// Adds the kinds of lines `range` to `counts`.
    func addKinds(_ range: Range<Int>, to counts: inout SummaryCounts) {
        for index in range { counts.add(SummaryKind(rawValue: kinds[index]) ?? .default) }
    }
}

/// The rows of chunks that overlap in time, formatted on several threads (issue 15): the
/// sealed chunks' time slices, and each chain of the chunks read whole (unsealed, or searched in
/// their index or block sets: `OverlappingParts.whole`), each through `OrderedParallelParts`
/// (its parts read at once, handed over in order), and the streams merged here by `RowOrder`,
/// so the output is the single-thread cursor's byte for byte. Memory stays bounded: every
/// hand-over is a bounded channel, and the streams share `bufferedBytes`.
struct MergedParallelBlocks {
    let plan: OverlappingParts
    let threads: Int
    let messageResidual: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?
    let style: RowLineStyle
    let offsets: @Sendable () -> (Int64) -> Int

    /// Bytes of NDJSON waiting in the streams' channels together, at most: a third of
    /// `StoreRows`' 24 MiB, because the chunks read whole sort their rows meanwhile (SQLite's
    /// sorter, without a timestamp index), and with 24 MiB a slow reader of 170 MB of NDJSON
    /// took the process to 77 MB (OverlappingMemoryBoundTests).
    static let bufferedBytes = 8 << 20
    /// Blocks waiting in each merged stream's hand-over.
    static let streamCapacity = 4

    func run(_ body: ([UInt8], Int, SummaryCounts) throws -> Void) throws {
        let streams = ([plan.parts] + plan.whole).filter { !$0.isEmpty }
        let channels = streams.map { _ in BatchChannel<KeyedNDJSONBlock>(capacity: Self.streamCapacity) }
        let group = DispatchGroup()
        let (threads, messageResidual, style, offsets) = (threads, messageResidual, style, offsets)
        let window = threads + 1
        let channelCapacity = max(2, Self.bufferedBytes / (max(1, streams.count) * window * StoreRows.blockSize))
        for (index, (parts, channel)) in zip(streams, channels).enumerated() {
            // A chain's parts are each another chunk: a connection kept for the next is a page
            // cache held for nothing (a common phrase through diagd at 10M peaked at 70 MB). A
            // time slice reads every sealed chunk it meets, and the next slice the same ones:
            // with fewer kept than that (three for a one-minute window through diagd, the
            // first chunk spanning the others), each slice opened its chunks again.
            let kept = index == 0 && !plan.parts.isEmpty ? max(2, parts.map(\.chunkCount).max() ?? 2) : 1
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    // The offset function in a struct, as StoreRows does (ZoneOffset says why).
                    try OrderedParallelParts<KeyedNDJSONBlock, ZoneOffset>(
                        tasks: parts.map { [$0] }, threads: threads, window: window, channelCapacity: channelCapacity,
                        keptConnections: kept
                    ).run(makeWorker: { ZoneOffset(offsets()) }, read: { zone, cursor, emit in
                        try StoreRows.format(cursor, messageResidual, style, zone.offset, emit)
                    }, consume: { block in
                        var batch = [block]
                        try channel.put(&batch)
                    })
                    channel.finish(failure: nil)
                } catch {
                    channel.finish(failure: error is BatchChannelCancelled ? nil : error)
                }
            }
        }
        defer {
            for channel in channels { channel.cancel() }
            group.wait()
        }
        try RowOrderMerge(channels.map(KeyedStream.init), limit: plan.limit).run(body)
    }
}

/// One merged stream's blocks as they arrive, and the line the merge is at.
private final class KeyedStream {
    private let channel: BatchChannel<KeyedNDJSONBlock>
    private var waiting: [KeyedNDJSONBlock] = []
    private(set) var block = KeyedNDJSONBlock()
    var line = 0
    private var ended = false

    init(_ channel: BatchChannel<KeyedNDJSONBlock>) {
        self.channel = channel
    }

    /// The order of the line the merge is at, taking the next block when this one is done; nil
    /// at the stream's end. Throws the reading thread's error where its rows end.
    func head() throws -> RowOrder? {
        while line >= block.count {
            if ended { return nil }
            if !waiting.isEmpty {
                block = waiting.removeFirst()
                line = 0
            } else if let batch = try channel.take() {
                waiting = batch
            } else {
                ended = true
                block = KeyedNDJSONBlock()
                line = 0
            }
        }
        return block.orders[line]
    }
}

/// Streams of lines, each in `RowOrder`, written in `RowOrder` in blocks of about
/// `StoreRows.blockSize`, up to `limit` lines. A run of lines from one stream that comes
/// before every other stream's next line is copied at once; a whole block of them is passed on
/// as it is.
private struct RowOrderMerge {
    let streams: [KeyedStream]
    let limit: Int?

    init(_ streams: [KeyedStream], limit: Int?) {
        self.streams = streams
        self.limit = limit
    }

    func run(_ body: ([UInt8], Int, SummaryCounts) throws -> Void) throws {
        var remaining = limit ?? .max
        var output: [UInt8] = []
        var lines = 0
        var kinds = SummaryCounts()
        var heads = try streams.map { try $0.head() }
        while remaining > 0 {
            // The stream whose next line comes first, and the first of the others' next lines.
            var first: Int?
            var bound: RowOrder?
            for (index, head) in heads.enumerated() {
                guard let head else { continue }
                if let current = first, let best = heads[current] {
                    if head < best {
                        bound = best
                        first = index
                    } else if bound.map({ head < $0 }) ?? true {
                        bound = head
                    }
                } else {
                    first = index
                }
            }
            guard let first else { break }
            let stream = streams[first]
            let block = stream.block
            let from = stream.line
            var to = from
            while to < block.count, to - from < remaining, bound.map({ block.orders[to] < $0 }) ?? true { to += 1 }
            stream.line = to
            remaining -= to - from
            heads[first] = try stream.head()
            if from == 0, to == block.count, output.isEmpty {
                var whole = SummaryCounts()
                block.addKinds(0..<block.count, to: &whole)
                try body(block.bytes, block.count, whole)
                continue
            }
            output.append(contentsOf: block.bytes[(from == 0 ? 0 : block.ends[from - 1])..<block.ends[to - 1]])
            lines += to - from
            block.addKinds(from..<to, to: &kinds)
            if output.count >= StoreRows.blockSize {
                try body(output, lines, kinds)
                output.removeAll(keepingCapacity: true)
                lines = 0
                kinds = SummaryCounts()
            }
        }
        if lines > 0 { try body(output, lines, kinds) }
    }
}
