import DiagModel
import Foundation

/// What `LogStore.snapshot` does to each chunk: records outside the window removed, the chunk
/// sealed and indexed, its figures measured; diagd's in-memory records made into chunks.
extension WindowedSnapshot {
    /// Writes records that are in no chunk through a store of their own, then moves its chunks
    /// in under the next sequence numbers, in rollback-journal mode like the others.
    func writeExtra(_ records: [LogRecord], into destination: URL, firstSequence: Int64) throws -> [ChunkInfo] {
        guard !records.isEmpty else { return [] }
        let folder = destination.appendingPathComponent(".memory", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let store = try LogStore.open(at: folder, create: true, options: .init(sealOnRotation: false))
            for start in stride(from: 0, to: records.count, by: 5_000) {
                try store.append(records[start..<min(start + 5_000, records.count)])
            }
            try store.close()
        } catch {
            throw SnapshotError.failure("cannot add diagd's in-memory records to the snapshot: \(error)")
        }
        var chunks: [ChunkInfo] = []
        for (offset, file) in StoreLayout.chunkFiles(in: folder).enumerated() {
            let sequence = firstSequence + Int64(offset)
            let name = StoreLayout.chunkFileName(sequence: sequence)
            let written = StoreLayout.chunkURL(folder, file: file).path
            let target = StoreLayout.chunkURL(destination, file: name).path
            do {
                let database = try Database(path: written, options: .init(create: false))
                _ = try database.scalarText("PRAGMA journal_mode = DELETE")
            } catch {
                throw SnapshotError.failure("cannot finish the chunk of in-memory records: \(error)")
            }
            guard rename(written, target) == 0 else {
                throw SnapshotError.failure("cannot move the chunk of in-memory records to \(target): \(String(cString: strerror(errno)))")
            }
            if let chunk = try trim(target, chunk: ChunkInfo(file: name, sequence: sequence)) { chunks.append(chunk) }
        }
        return chunks
    }

    /// Removes the copy's records outside the window and measures what is left; nil (and the
    /// file removed) when nothing is left.
    func trim(_ path: String, chunk: ChunkInfo) throws -> ChunkInfo? {
        let remaining: Int64
        do {
            let database = try Database(path: path, options: .init(create: false))
            var figures = try measure(database)
            if figures.count > 0, let oldest = figures.oldest, let newest = figures.newest,
               !window.contains(oldest: oldest, newest: newest)
            {
                // A staged copy: synced as part of the bundle, not by itself.
                try database.execute("PRAGMA synchronous = OFF")
                try database.execute("DELETE FROM records WHERE timestamp < ? OR timestamp >= ?",
                                     [window.start ?? Int64.min, window.end ?? Int64.max])
                try MessageBlocks.removeEmptyBlocks(database, tables: ChunkTables(database))
                // The search index is contentless: its entries cannot be removed one by one, so a
                // trimmed chunk's index is dropped here and built again below from what is left.
                try database.execute("DROP TABLE IF EXISTS \(ChunkSchema.searchTable)")
                try database.execute("VACUUM")
                figures = try measure(database)
            }
            remaining = figures.count
        } catch {
            throw SnapshotError.failure("cannot trim the snapshot of \(chunk.file) to the window: \(error)")
        }
        guard remaining > 0 else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
        // Every chunk of a snapshot is final: sealed, with its message search index, so that a
        // reader's CONTAINS finds its records through the index instead of a scan.
        do {
            return try SnapshotChunkFinisher.finish(path: path, chunk: ChunkInfo(file: chunk.file, sequence: chunk.sequence))
        } catch {
            throw SnapshotError.failure("cannot index the snapshot of \(chunk.file): \(error)")
        }
    }

    /// A sealed chunk's figures read through `database`, but its record count (0 here): the
    /// oldest and newest times come from its timestamp index, one lookup each, while a count
    /// would read a whole index. `size` is its file's size.
    func measureSealed(_ database: Database, chunk: ChunkInfo, size: Int64) throws -> ChunkInfo {
        do {
            let names = try indexNames(database)
            let oldest = try database.scalarInt("SELECT min(timestamp) FROM records")
            let newest = try database.scalarInt("SELECT max(timestamp) FROM records")
            return ChunkInfo(file: chunk.file, sequence: chunk.sequence, sealed: names.contains(StoreLayout.timestampIndex),
                             recordCount: 0, oldestTimestamp: oldest, newestTimestamp: newest,
                             byteCount: size, searchIndex: names.contains(ChunkSchema.searchTable),
                             // The store's own measure of a sealed chunk, whose rows no longer change.
                             timeOrdered: chunk.timeOrdered,
                             // Sampled here for a chunk an older diagd sealed without them.
                             timeSamples: chunk.timeSamples ?? ChunkTimeSamples(database: database)?.times,
                             timeBuckets: names.contains(StoreLayout.timestampIndex)
                                 ? ChunkTimeBuckets.measure(database, oldest: oldest, newest: newest) : nil)
        } catch {
            throw SnapshotError.failure("cannot read the figures of \(database.path): \(error)")
        }
    }

    private func measure(_ database: Database) throws -> (count: Int64, oldest: Int64?, newest: Int64?) {
        // A chunk file that diagd created and could not make a table in (its disk was full)
        // holds no record: readers skip it, and so does the snapshot.
        guard try ChunkTables(database).hasRecords else { return (0, nil, nil) }
        let statement = try database.prepare("SELECT count(*), min(timestamp), max(timestamp) FROM records")
        guard try statement.step() else { return (0, nil, nil) }
        return (statement.int64(at: 0), statement.optionalInt64(at: 1), statement.optionalInt64(at: 2))
    }

    private func indexNames(_ database: Database) throws -> Set<String> {
        let statement = try database.prepare("SELECT name FROM sqlite_master WHERE type IN ('index', 'table')")
        var names: Set<String> = []
        while try statement.step() { names.insert(statement.string(at: 0)) }
        return names
    }
}
