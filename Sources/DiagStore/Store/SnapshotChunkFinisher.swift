import Foundation

/// Gives a chunk copied out of a store (a bundle's staged chunk, in rollback-journal mode) the
/// indexes and message search index a sealed chunk has, without turning it to WAL mode: a
/// bundle's chunks must be readable without `-wal`/`-shm` files.
public enum SnapshotChunkFinisher {
    /// Builds what is missing; returns the chunk's figures as they now are.
    public static func finish(path: String, chunk: ChunkInfo) throws -> ChunkInfo {
        do {
            let database = try Database(path: path, options: .init(create: false))
            // A staged copy is synced as part of the bundle, not by itself.
            try database.execute("PRAGMA synchronous = OFF")
            let tables = try ChunkTables(database)
            try database.inTransaction(.immediate) {
                for index in ChunkSchema.indexes { try database.execute(index.sql) }
                if !tables.hasSearchIndex { try MessageSearchIndex.fill(database) }
            }
            try database.execute("PRAGMA analysis_limit = 400; ANALYZE")
            return try ChunkSealer.measure(database, chunk: chunk)
        } catch {
            throw StoreError.chunk(path, error)
        }
    }
}
