import Foundation

extension ForeignChunk {
    /// Writes the rows of the version-1 chunk at `source` into a new chunk at `destination`
    /// (which must not exist), at `ChunkSchema.version`.
    ///
    /// The source is never changed and none of its schema objects is used: it is read through
    /// `Database.openUntrusted` after `inspect` accepted it, and the new file holds only what
    /// `ChunkSchema` creates. Rows are streamed, one transaction per `batchSize` rows.
    public static func copyVersion1(from source: String, to destination: String, batchSize: Int = 50_000) throws {
        let reader: Database
        do {
            reader = try Database.openUntrusted(path: source)
            guard try inspect(reader, path: source) == .version1 else {
                throw StoreError(.badChunk, path: source, reason: "not a chunk of schema version 1")
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.badChunk, path: source, reason: "not a readable chunk: \(error)")
        }
        do {
            let writer = try Database(path: destination, options: .init(create: true))
            writer.limitValueLength()
            try writer.execute(ChunkSchema.createRecords)
            let rows = try reader.prepare("SELECT \(ChunkMigration.version1Values) FROM log ORDER BY rowid")
            let columnCount = ChunkMigration.version1Columns.split(separator: ",").count
            let insert = try writer.prepare(
                "INSERT INTO records (\(ChunkMigration.version1Columns)) VALUES (\(Array(repeating: "?", count: columnCount).joined(separator: ", ")))")
            var more = true
            while more {
                try writer.inTransaction(.immediate) {
                    var copied = 0
                    while copied < max(1, batchSize) {
                        guard try rows.step() else { more = false; return }
                        for column in 0..<Int32(columnCount) { try insert.bind(rows.value(at: column), at: column + 1) }
                        try insert.run()
                        copied += 1
                    }
                }
            }
            try writer.setUserVersion(ChunkSchema.version)
        } catch {
            throw StoreError.chunk(source, error)
        }
    }
}
