import Foundation

/// What `diag erase` removed.
public struct EraseResult: Sendable {
    public var records: Int64
    public var chunkFiles: Int
}

extension LogStore {
    /// Removes every record of the store at `url`, as `log erase` does, keeping the store (its
    /// identifier and folder) for the next writer. Takes the writer lock first, so it is refused
    /// while diagd, or any writer, holds the store. Info.json is emptied before the files go:
    /// a crash in between leaves files the next open lists again, never a listing without files.
    public static func erase(at url: URL) throws -> EraseResult {
        let lock = try WriterLock(storeURL: url)
        defer { withExtendedLifetime(lock) {} }
        let infoURL = StoreLayout.infoURL(url)
        let old = try StoreInfo.load(from: infoURL)
        try StoreInfo(identifier: old.identifier).save(to: infoURL)
        let persist = StoreLayout.chunkFolderURL(url)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: persist.path)) ?? []
        var removed = 0
        for name in names where name.contains(StoreLayout.chunkSuffix) {
            let path = persist.appendingPathComponent(name).path
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw StoreError(.io, path: path, reason: "cannot remove a chunk file: \(error.localizedDescription)")
            }
            removed += 1
        }
        return EraseResult(records: old.recordCount, chunkFiles: removed)
    }
}
