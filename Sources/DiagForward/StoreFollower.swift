import DiagModel
import DiagStore
import Foundation

/// Reads a store's committed records in the order they were committed — chunk by chunk, by
/// `id` within a chunk — after a position, through read-only connections, while diagd appends.
///
/// Only committed records are read (a transaction is visible once committed), never what is
/// still in diagd's queue or memory ring. A chunk removed by expiry before the follower reached
/// it is skipped and reported as lost.
public final class StoreFollower {
    public let storeDirectory: URL
    private var open: OpenChunk?
    /// The chunks as last listed, with their record counts: what a loss is counted from.
    private var lastListed: [Int64: ChunkInfo] = [:]
    /// Writes frames from rows, its buffer kept from batch to batch.
    private var rowEncoder: RFC5424RowEncoder?

    public init(storeDirectory: URL) {
        self.storeDirectory = storeDirectory
    }

    /// Records after `position` (at most `limit`), the position of the last one, and the chunks
    /// expired before they were read.
    public struct Batch {
        /// The records read, when read as records.
        public var records: [LogRecord] = []
        /// Their RFC 5424 frames, when read as frames (`read(after:limit:chunks:frames:)`).
        public var frames: FrameBatch?
        /// How many records the batch holds, in either form.
        public var count = 0
        public var end: ForwardPosition
        public var lost: [Loss] = []
        /// Rows that hold no valid record (a damaged chunk): skipped, each with why.
        public var undecodable: [String] = []
    }

    /// Chunks removed (expiry) before the follower read them: `records` is nil when the count
    /// is unknown (the chunk was gone before this process saw it).
    public struct Loss: Sendable, Hashable {
        public var chunk: Int64
        public var records: Int64?

        public init(chunk: Int64, records: Int64?) {
            self.chunk = chunk
            self.records = records
        }
    }

    /// The position after the newest committed record: where a new forward starts.
    public func endPosition(chunks: [ChunkInfo]) throws -> ForwardPosition {
        guard let newest = chunks.max(by: { $0.sequence < $1.sequence }) else { return .beginning }
        let chunk = try StoreLayout.openingChunk(at: path(of: newest)) { try OpenChunk(sequence: newest.sequence, path: $0) }
        return ForwardPosition(chunk: newest.sequence, record: try chunk?.maximumID() ?? 0)
    }

    /// Reads the next records after `position`; `chunks` is the store's chunk list now.
    public func read(after position: ForwardPosition, limit: Int, chunks: [ChunkInfo]) throws -> Batch {
        try read(after: position, limit: limit, chunks: chunks, frames: nil)
    }

    /// The same, the records as `encoder`'s octet-counted frames (`batch.frames`) written
    /// straight from the chunk's columns, when `encoder` is given.
    public func read(after position: ForwardPosition, limit: Int, chunks: [ChunkInfo], frames encoder: RFC5424Encoder?) throws -> Batch {
        guard let encoder else { return try read(after: position, limit: limit, chunks: chunks, into: nil) }
        if rowEncoder?.encoder != encoder {
            rowEncoder = RFC5424RowEncoder(encoder: encoder)
        }
        let frameWriter = rowEncoder!
        frameWriter.beginBatch()
        var batch = try read(after: position, limit: limit, chunks: chunks, into: frameWriter)
        batch.frames = frameWriter.takeBatch()
        return batch
    }

    /// Records after `position`, as records or, with `frames`, as frames written into it.
    private func read(after position: ForwardPosition, limit: Int, chunks: [ChunkInfo], into frames: RFC5424RowEncoder?) throws -> Batch {
        let listed = chunks.sorted { $0.sequence < $1.sequence }
        var batch = Batch(end: position)
        defer { for chunk in listed { lastListed[chunk.sequence] = chunk } }
        while true {
            let current = batch.end.chunk
            let isListed = listed.contains { $0.sequence == current }
            if open?.sequence != current { open = nil }
            if open == nil, isListed, let info = listed.first(where: { $0.sequence == current }) {
                open = try StoreLayout.openingChunk(at: path(of: info)) { try OpenChunk(sequence: current, path: $0) }
            }
            if let chunk = open {
                do {
                    let last = try chunk.read(after: batch.end.record, limit: limit, undecodable: &batch.undecodable) { row in
                        if let frames {
                            try frames.appendFrame(row: row, chunk: chunk.path)
                        } else {
                            batch.records.append(try RecordColumns.decode(row, chunk: chunk.path))
                        }
                        batch.count += 1
                    }
                    if let last {
                        batch.end.record = last
                        return batch
                    }
                } catch where !FileManager.default.fileExists(atPath: chunk.path) {
                    // Expired while it was being read: what was read stands, the rest is lost.
                    open = nil
                }
            }
            guard let next = listed.first(where: { $0.sequence > current }) else { return batch }
            // The newer chunk was listed before this one was read to its end, and only the newest
            // chunk takes appends: nothing more can come to this one. This one, when it is gone
            // unread, and the chunks seen between it and the next are lost.
            let currentLost = !isListed && open == nil && current > 0
            for sequence in current..<next.sequence where (sequence == current && currentLost) || (sequence > current && lastListed[sequence] != nil) {
                let known = lastListed[sequence].map { max(0, $0.recordCount - (sequence == current ? batch.end.record : 0)) }
                if known != 0 { batch.lost.append(Loss(chunk: sequence, records: known)) }
            }
            open = nil
            batch.end = ForwardPosition(chunk: next.sequence, record: 0)
        }
    }

    private func path(of chunk: ChunkInfo) -> String {
        StoreLayout.currentChunkURL(storeDirectory, file: chunk.file).path
    }
}

@available(*, unavailable) extension StoreFollower: Sendable {}

/// One chunk's read-only connection and its prepared read.
private final class OpenChunk {
    let sequence: Int64
    let path: String
    private let database: Database
    private let statement: Statement

    /// Nil when the file is not there (expired) or holds no table yet (being created).
    init?(sequence: Int64, path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        self.sequence = sequence
        self.path = path
        let database: Database
        do {
            database = try Database.openForReading(path: path)
            guard try database.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'records'") == 1 else { return nil }
            statement = try database.prepare("SELECT \(RecordColumns.select) FROM records WHERE id > ? ORDER BY id LIMIT ?")
        } catch where !FileManager.default.fileExists(atPath: path) {
            return nil
        }
        self.database = database
    }

    func maximumID() throws -> Int64 {
        try database.scalarInt("SELECT max(id) FROM records") ?? 0
    }

    /// Hands the rows after `id` to `row` and returns the last one's id, nil when there is none;
    /// a row `row` refuses (`ForwardStoreError`) is listed in `undecodable`.
    func read(after id: Int64, limit: Int, undecodable: inout [String], row: (Statement) throws -> Void) throws -> Int64? {
        statement.reset()
        try statement.bind(id, at: 1)
        try statement.bind(Int64(limit), at: 2)
        var last: Int64?
        defer { statement.reset() }
        while try statement.step() {
            do {
                try row(statement)
            } catch let error as ForwardStoreError {
                undecodable.append(error.description)
            }
            last = statement.int64(at: 0)
        }
        return last
    }
}
