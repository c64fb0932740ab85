import Foundation

extension LogStore {
    /// The timestamp of the store's newest record, nil when it holds none: where `--last`
    /// counts back from on a bundle or a copied store (`log show`: "relative to the end of the
    /// log archive"). Asked of every chunk with SQL, since Info.json's figure for the chunk
    /// being written may lag behind it.
    public func newestTimestamp() throws -> Int64? {
        var newest: Int64?
        try forEachChunk(StoreFilter()) { _, database, _, _ in
            let statement = try database.prepare("SELECT max(timestamp) FROM records")
            if try statement.step(), let value = statement.optionalInt64(at: 0) {
                newest = max(newest ?? .min, value)
            }
        }
        return newest
    }
}
