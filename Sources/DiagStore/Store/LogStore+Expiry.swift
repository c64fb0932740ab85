import Foundation

/// What an expiry pass removed.
public struct ExpiryResult: Sendable, Hashable {
    /// File names of the chunks removed, oldest first.
    public var removedChunks: [String] = []
    public var removedRecords: Int64 = 0
    public var removedBytes: Int64 = 0
}

extension LogStore {
    /// Removes whole chunks, oldest first: those whose newest record is older than `maxAge`
    /// (nanoseconds before `now`), then more until the store takes at most `maxTotalBytes`.
    /// The chunk being written (here, or as the newest chunk by another process) and chunks
    /// being sealed or indexed are never removed, so the size bound is at least one chunk. For
    /// the size, what goes is always the oldest chunks: one that cannot go now ends the pass (the
    /// next pass, once its seal is done, goes on), for removing a newer chunk in its place would
    /// lose newer records and keep older ones. diagd's size quota did that under load: with the
    /// oldest chunk being sealed, it removed the one after it, the newest records but one chunk's
    /// (QuotaTests, about 1 run in 6).
    @discardableResult
    public func expire(maxTotalBytes: Int64? = nil, maxAge: Int64? = nil,
                       now: Int64 = Int64(Date().timeIntervalSince1970 * 1e9)) throws -> ExpiryResult {
        let removed: [ChunkInfo] = try lock.withLock {
            try requireWritable()
            for index in state.info.chunks.indices where state.info.chunks[index].file != state.writerChunk {
                state.info.chunks[index].byteCount = ChunkSealer.diskSize(of: chunkPath(state.info.chunks[index].file))
            }
            if let writer = state.writer, let file = state.writerChunk { try refreshWriterSize(writer, file: file) }
            let oldestFirst = state.info.chunks.sorted { $0.sequence < $1.sequence }
            let mayGo = { (chunk: ChunkInfo) in !chunk.mayBeAppendedTo(self.state) && !self.state.sealing.contains(chunk.file) }
            var doomed: Set<String> = []
            if let maxAge {
                // By age, any chunk whose records are all too old, wherever it lies.
                let cutoff = now - maxAge
                for chunk in oldestFirst where mayGo(chunk) && (chunk.newestTimestamp ?? .min) < cutoff { doomed.insert(chunk.file) }
            }
            if let maxTotalBytes {
                var total = state.info.chunks.filter { !doomed.contains($0.file) }.reduce(0) { $0 + $1.byteCount }
                for chunk in oldestFirst where total > maxTotalBytes && !doomed.contains(chunk.file) {
                    guard mayGo(chunk) else { break }
                    doomed.insert(chunk.file)
                    total -= chunk.byteCount
                }
            }
            guard !doomed.isEmpty else { return [] }
            let removed = state.info.chunks.filter { doomed.contains($0.file) }
            // A closed chunk still waiting for its seal to fold the WAL goes whole: its
            // connection closes first, without folding what is about to be removed.
            for file in doomed { state.waitingFolds.removeValue(forKey: file) }
            // Info.json first: a crash before the files go leaves them listed again at the next open.
            state.info.chunks.removeAll { doomed.contains($0.file) }
            try saveInfoLocked()
            return removed
        }
        var result = ExpiryResult()
        for chunk in removed {
            // Wherever it is: a burst's chunk under `Persist/Burst/` too (one whose seal was cut
            // short after its copy was renamed into place is in both).
            for path in [sealedChunkPath(chunk.file), burstChunkPath(chunk.file)] {
                try ChunkSealer.removeChunkFiles(path, doing: "an expired chunk file")
            }
            result.removedChunks.append(chunk.file)
            result.removedRecords += chunk.recordCount
            result.removedBytes += chunk.byteCount
        }
        return result
    }
}
