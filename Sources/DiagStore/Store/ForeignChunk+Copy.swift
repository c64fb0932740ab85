import Foundation

extension ForeignChunk {
    /// Writes the rows of the older chunk at `source` (version 1 or 2) into a new chunk at
    /// `destination` (which must not exist), at `ChunkSchema.version`.
    ///
    /// The source is never changed and none of its schema objects is used: it is read through
    /// `Database.openUntrusted` after `inspect` accepted it, and the new file holds only what
    /// `ChunkSchema` creates. Rows are streamed, one transaction per `batchSize` rows.
    public static func copyForward(from source: String, to destination: String, batchSize: Int = 50_000) throws {
        let reader: Database
        let shape: Shape
        do {
            reader = try Database.openUntrusted(path: source)
            shape = try inspect(reader, path: source)
            guard shape != .current else {
                throw StoreError(.badChunk, path: source, reason: "a chunk of the current schema needs no copy")
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
            let (columns, select) = shape == .version1
                ? (ChunkMigration.version1Columns, "SELECT \(ChunkMigration.version1Values) FROM log ORDER BY rowid")
                : (version2Columns.joined(separator: ", "), "SELECT \(version2Columns.joined(separator: ", ")) FROM records ORDER BY id")
            let rows = try reader.prepare(select)
            let columnCount = columns.split(separator: ",").count
            let insert = try writer.prepare(
                "INSERT INTO records (\(columns)) VALUES (\(Array(repeating: "?", count: columnCount).joined(separator: ", ")))")
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
