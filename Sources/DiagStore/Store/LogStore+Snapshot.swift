import Foundation

extension LogStore {
    /// Writes a consistent copy of the store to a new directory `destination` (for bundles):
    /// every chunk through SQLite's online backup, never a raw copy of a live file, then an
    /// `Info.json` measured from the copies. Appends may go on meanwhile; each chunk's copy is
    /// a state that chunk had. The copies are in rollback-journal mode, so that reading them
    /// (from an unpacked bundle, say) creates no `-wal`/`-shm` files. Returns the copy's `Info.json`.
    @discardableResult
    public func snapshot(to destination: URL) throws -> StoreInfo {
        let source = lock.withLock { state.info }
        let persist = destination.appendingPathComponent("Persist", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: persist, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.io, path: destination.path, reason: "cannot create the snapshot directory: \(error.localizedDescription)")
        }
        var copy = StoreInfo(identifier: source.identifier)
        for chunk in source.chunks {
            let from = chunkPath(chunk.file)
            let to = persist.appendingPathComponent(chunk.file).path
            guard FileManager.default.fileExists(atPath: from) else { continue }
            do {
                try Database.openForReading(path: from).backup(toPath: to)
                let database = try Database(path: to, options: .init(create: false))
                // A snapshot is never appended to: in rollback mode, readers need no -wal/-shm files.
                try database.execute("PRAGMA journal_mode = DELETE")
                copy.chunks.append(try ChunkSealer.measure(database, chunk: chunk))
            } catch {
                throw StoreError.chunk(from, error)
            }
        }
        copy.recomputeTotals()
        try copy.save(to: destination.appendingPathComponent("Info.json"))
        return copy
    }
}
