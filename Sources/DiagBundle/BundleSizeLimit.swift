import DiagModel
import DiagStore
import Foundation

/// `diag collect --size`: the newest records of the window whose chunk data fits a budget, as
/// `log collect --size` keeps the newest. Records are weighed by their chunk's bytes per record
/// as stored (SQLite pages and indexes, before the archive compresses them); the window's start
/// moves up to the oldest record that fits, and what falls before it is counted for the bundle
/// to say.
public struct BundleSizeLimit: Sendable {
    /// What the limit left out of the window.
    public struct LeftOut: Sendable, Equatable {
        /// The bundle's limit in bytes (`--size`).
        public var limit: Int64
        /// The window's start after the limit: the records from here on are kept.
        public var keptFrom: Int64
        public var leftOutRecords: Int64
        public var keptRecords: Int64
        /// The oldest record left out.
        public var leftOutOldest: Int64?
    }

    public var store: URL
    public var window: BundleWindow

    public init(store: URL, window: BundleWindow) {
        self.store = store
        self.window = window
    }

    /// The window's new start and what it leaves out when the window's records weigh more than
    /// `budget`; nil when they all fit.
    public func plan(budget: Int64, limit: Int64) throws -> LeftOut? {
        let chunks = try openChunks()
        let start = window.start ?? Int64.min
        let end = window.end ?? Int64.max
        // Newest first across the chunks (their times may overlap): a merge of one descending
        // cursor per chunk, read only as far as the budget reaches.
        var cursors: [(statement: Statement, weight: Int64, current: Int64?)] = []
        for chunk in chunks {
            let statement = try chunk.database.prepare("SELECT timestamp FROM records WHERE timestamp >= ? AND timestamp < ? ORDER BY timestamp DESC")
            try statement.bind([start, end])
            cursors.append((statement, chunk.weight, try statement.step() ? statement.int64(at: 0) : nil))
        }
        var used: Int64 = 0
        var firstLeftOut: Int64?
        while true {
            guard let index = cursors.indices.filter({ cursors[$0].current != nil }).max(by: { cursors[$0].current! < cursors[$1].current! }) else { break }
            let timestamp = cursors[index].current!
            if used + cursors[index].weight > budget {
                firstLeftOut = timestamp
                break
            }
            used += cursors[index].weight
            cursors[index].current = try cursors[index].statement.step() ? cursors[index].statement.int64(at: 0) : nil
        }
        cursors.removeAll()
        guard let firstLeftOut else { return nil }
        // Every record at the first left-out instant goes too: a window cannot cut between equal times.
        let keptFrom = firstLeftOut == Int64.max ? firstLeftOut : firstLeftOut + 1
        var leftOut: Int64 = 0
        var kept: Int64 = 0
        var oldest: Int64?
        for chunk in chunks {
            leftOut += try chunk.database.scalarInt("SELECT count(*) FROM records WHERE timestamp >= ? AND timestamp < ?", [start, keptFrom]) ?? 0
            kept += try chunk.database.scalarInt("SELECT count(*) FROM records WHERE timestamp >= ? AND timestamp < ?", [keptFrom, end]) ?? 0
            if let first = try chunk.database.scalarInt("SELECT min(timestamp) FROM records WHERE timestamp >= ? AND timestamp < ?", [start, keptFrom]) {
                oldest = min(oldest ?? first, first)
            }
        }
        return LeftOut(limit: limit, keptFrom: keptFrom, leftOutRecords: leftOut, keptRecords: kept, leftOutOldest: oldest)
    }

    /// Each chunk that may hold records of the window, read-only, with the bytes one of its
    /// records takes. A chunk still being written has no indexes yet; the bundle's copy gets them,
    /// so its records weigh at least what a sealed chunk's do.
    private func openChunks() throws -> [(database: Database, weight: Int64)] {
        let info: StoreInfo
        do {
            info = try LogStore.open(at: store, options: .readOnly).info
        } catch {
            throw BundleError.failure("cannot open the log store \(store.path) to bound the bundle's size: \(error)")
        }
        var opened: [(database: Database, bytes: Int64, records: Int64, sealed: Bool)] = []
        for chunk in info.chunks where window.overlaps(oldest: chunk.oldestTimestamp, newest: chunk.newestTimestamp) {
            let path = StoreLayout.currentChunkURL(store, file: chunk.file).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do {
                let database = try Database(path: path, options: .init(readOnly: true, create: false))
                let records = try database.scalarInt("SELECT count(*) FROM records") ?? 0
                guard records > 0 else { continue }
                opened.append((database, Self.size(of: path) + Self.size(of: path + "-wal"), records, chunk.sealed))
            } catch {
                throw BundleError.failure("cannot read \(chunk.file) of the log store to bound the bundle's size: \(error)")
            }
        }
        let sealedWeights = opened.filter(\.sealed).map { $0.bytes / $0.records }
        let sealedWeight = sealedWeights.isEmpty ? 0 : sealedWeights.reduce(0, +) / Int64(sealedWeights.count)
        return opened.map { chunk in
            let own = max(1, chunk.bytes / chunk.records)
            return (chunk.database, chunk.sealed ? own : max(own, sealedWeight))
        }
    }

    private static func size(of path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }
}

extension BundleSizeLimit.LeftOut {
    /// `summaries/left-out.txt`: what `--size` left out, for whoever opens the bundle.
    public var summaryText: String {
        var text = "This bundle was collected with --size \(limit) (bytes): it keeps the newest records that fit.\n"
        text += "Kept: \(keptRecords) record\(keptRecords == 1 ? "" : "s"), from \(Timestamp.formatISO8601(nanoseconds: keptFrom, fractionDigits: 9)) on.\n"
        text += "Left out: \(leftOutRecords) older record\(leftOutRecords == 1 ? "" : "s")"
        if let leftOutOldest {
            text += ", from \(Timestamp.formatISO8601(nanoseconds: leftOutOldest, fractionDigits: 9))"
        }
        text += " to before \(Timestamp.formatISO8601(nanoseconds: keptFrom, fractionDigits: 9)).\n"
        return text
    }
}
