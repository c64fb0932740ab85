import DiagCommandLine
import DiagModel
import DiagPatterns
import DiagQuery
import Foundation

extension RecordFilter {
    /// Counts every selected record of `sources` in `miner`, in time order: `visit` sees each
    /// record, `update` each one that found a pattern, in its pattern's summary. Returns how
    /// many lines of files were refused, each reported on stderr.
    ///
    /// One store or one bundle is read on every core (`StoreRowBlocks`): the reading threads
    /// mask the messages, and this thread places each block's distinct masked messages
    /// (`MaskedRowBlock`), then counts the rows in order. The miner gets the same calls in the
    /// same order as from `miner.add(record.eventMessage)` record after record, which is what
    /// other sources get: the patterns, their IDs and counts are the same either way.
    func mine<Summary>(
        _ sources: [String], into miner: inout PatternMiner<Summary>,
        visit: (any PatternRecord) -> Void = { _ in }, update: (inout Summary, any PatternRecord) -> Void
    ) throws -> Int {
        let (query, querySources, _) = try self.query(of: sources)
        do {
            if let rows = try query.openStoreRowBlocks(querySources, bundleOpener: SourceArguments.bundleOpener) {
                var feed = PatternFeed()
                try rows.forEachBlock(threads: PatternFeed.threads, MaskedRowBuilder.self) { block in
                    feed.count(block, in: &miner, visit: visit, update: update)
                }
                return 0
            }
        } catch let error as QueryError {
            throw error.isBadInput ? InputError(error.message) as any Error : RuntimeError(error.message)
        }
        return try forEachRecord(of: sources) { record in
            visit(record)
            miner.add(record.eventMessage) { update(&$0, record) }
        }
    }
}

/// Places the rows of masked blocks in a miner, asking the miner once per distinct masked
/// message of a block and generation (`PatternMiner.cacheGeneration`): within a generation
/// the miner's answer for a masked message does not change, and a message that overflowed is
/// asked again each time, as `add` does.
struct PatternFeed {
    /// Threads that read and mask: one a core.
    static var threads: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Per distinct masked message of the current block: the generation its index was given in
    /// (+ 1, so that 0 is none) and the index.
    private var generationOfMask: [Int] = []
    private var indexOfMask: [Int] = []

    mutating func count<Summary>(
        _ block: MaskedRowBlock, in miner: inout PatternMiner<Summary>,
        visit: (any PatternRecord) -> Void, update: (inout Summary, any PatternRecord) -> Void
    ) {
        generationOfMask = [Int](repeating: 0, count: block.masks.count)
        indexOfMask = [Int](repeating: 0, count: block.masks.count)
        for row in 0..<block.count {
            let mask = Int(block.maskOfRow[row])
            let record = MaskedRow(block: block, row: row)
            visit(record)
            var index: Int?
            if generationOfMask[mask] == miner.cacheGeneration + 1 {
                index = indexOfMask[mask]
            } else {
                index = miner.patternIndex(masked: block.masks[mask])
                if let index {
                    generationOfMask[mask] = miner.cacheGeneration + 1
                    indexOfMask[mask] = index
                }
            }
            miner.count(in: index) { update(&$0, record) }
        }
    }
}
