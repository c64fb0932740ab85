import DiagModel
import Foundation

extension LogStore {
    /// The records matching `filter`, in timestamp order, read as they are consumed.
    public func records(filter: StoreFilter = StoreFilter()) -> RecordCursor {
        let chunks = chunksToRead(filter)
        // Each chunk's path made once: a read cut into slices asks again for every slice (1,221
        // for a condition over 10M records), and a URL's path costs a few microseconds.
        // (Where each is now: a burst's chunk that its seal moves meanwhile is found by `ChunkReader`.)
        let paths = Dictionary(chunks.map { ($0.file, chunkPath($0.file)) }, uniquingKeysWith: { first, _ in first })
        let persistURL = persistURL
        let cursor = RecordCursor(chunks: chunks, filter: filter, pathOf: { paths[$0] ?? persistURL.appendingPathComponent($0).path })
        // The read goes on after the caller lets the store go (`diag show` keeps the cursor only).
        cursor.readerMark = readerMark
        return cursor
    }

    /// The number of records matching the SQL part of `filter` (time, `whereSQL`, and the
    /// search prefilter; `limit` is ignored).
    public func count(filter: StoreFilter = StoreFilter()) throws -> Int64 {
        var total: Int64 = 0
        let trigrams = TrigramChoice()
        try forEachChunk(filter) { chunk, database, tables, path in
            let condition = ChunkCondition(filter: filter, chunk: chunk, tables: tables, database: database, path: path, trigrams: trigrams)
            let statement = try database.prepare("SELECT count(*) FROM records\(condition.sql)")
            try statement.bind(condition.bindings)
            if try statement.step() { total += statement.int64(at: 0) }
        }
        return total
    }

    /// Runs `body` on a read-only connection to every chunk that may hold records of `filter`.
    func forEachChunk(_ filter: StoreFilter, _ body: (ChunkInfo, Database, ChunkTables, String) throws -> Void) throws {
        for chunk in chunksToRead(filter) { try readChunk(chunk) { try body(chunk, $0, $1, $2) } }
    }

    /// The chunks that may hold records of `filter`, in the store's order: every chunk that may
    /// still be written, and the others that hold records in its window. A closed chunk not
    /// sealed yet has a final range too (`State.finalRanges`): through diagd at 10M records, the
    /// finisher some chunks behind, a one-minute window opened each of them (their `-shm` made and
    /// removed, their block sets read), none holding a record of that minute.
    func chunksToRead(_ filter: StoreFilter) -> [ChunkInfo] {
        let (chunks, finalRanges) = lock.withLock { (state.info.chunks, state.finalRanges) }
        return chunks.filter { chunk in
            let rangeIsFinal = chunk.sealed || finalRanges.contains(chunk.file)
            guard filter.mayHoldRecords(of: chunk, rangeIsFinal: rangeIsFinal) else { return false }
            guard !rangeIsFinal else { return true }
            let unlisted = StoreFilter(start: filter.start, end: filter.end).narrowed(for: chunk)
            guard unlisted.afterID != nil else { return true }
            return holdsRecords(unlisted, in: chunk)
        }
    }

    /// Whether `chunk`, still written and listed with a range that misses the window, holds a
    /// record of `unlisted` (the window, and the ids past the listed ones: `StoreFilter.narrowed`),
    /// a look at those few rows before the read plans the chunk. diagd's open chunk is in every
    /// read's plan (a record of any time may come), and in a window of other chunks it was a
    /// second stream to merge, read on threads of its own, for none of its records: 3.5 ms of a
    /// 24 ms window through diagd at 10M records. True when the look fails: the read then meets
    /// the error and reports it.
    private func holdsRecords(_ unlisted: StoreFilter, in chunk: ChunkInfo) -> Bool {
        let condition = ChunkCondition(filter: unlisted, searchIndex: false)
        var holds = false
        do {
            // No file, or no records table: the read finds nothing there either (`readChunk`).
            try readChunk(chunk) { database, _, _ in
                let statement = try database.prepare("SELECT EXISTS (SELECT 1 FROM records\(condition.sql))")
                try statement.bind(condition.bindings)
                holds = try statement.step() && statement.int64(at: 0) != 0
            }
        } catch {
            return true
        }
        return holds
    }

    /// Runs `body` on a read-only connection to `chunk`, if its file is there and holds records;
    /// an error names the chunk. A settled chunk is opened immutable, as `diag show` opens it
    /// (`ChunkConnections.open`): no `-shm` to create beside it, which failed `diag stats` of a
    /// store on a full file system ("disk I/O error") where `diag show` read it.
    func readChunk(_ chunk: ChunkInfo, _ body: (Database, ChunkTables, String) throws -> Void) throws {
        let planned = chunkPath(chunk.file)
        let opened: (database: Database, tables: ChunkTables, path: String)?
        do {
            opened = try StoreLayout.openingChunk(at: planned) { path in
                guard FileManager.default.fileExists(atPath: path) else { return nil }
                let database = try ChunkConnections.open(chunk: chunk, path: path, mapping: 0)
                return (database, try ChunkTables(database), path)
            }
        } catch {
            throw StoreError.chunk(planned, error)
        }
        guard let opened, opened.tables.hasRecords else { return }
        do {
            try body(opened.database, opened.tables, opened.path)
        } catch {
            throw StoreError.chunk(opened.path, error)
        }
    }
}
