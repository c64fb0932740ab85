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
            // A burst's chunk copied before its seal is in 64 KiB pages (docs/STORE.md, "Chunks
            // written in a burst"): written again in the 4 KiB pages of every sealed chunk, as
            // its seal would have, so that a bundle's reads touch 4 KiB for a row's few hundred bytes.
            if try database.scalarInt("PRAGMA page_size") != 4_096 {
                try database.execute("PRAGMA page_size = 4096; VACUUM")
            }
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
