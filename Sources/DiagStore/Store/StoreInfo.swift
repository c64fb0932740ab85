import DiagModel
import Foundation

/// One chunk file as `Info.json` describes it.
public struct ChunkInfo: Codable, Sendable, Hashable {
    /// The file name under `Persist/`, e.g. `0000000000000001.chunk.sqlite`.
    public var file: String
    /// Increases with each new chunk: the write order.
    public var sequence: Int64
    /// True once closed and indexed; a sealed chunk is never written again (except its search index).
    public var sealed: Bool
    public var recordCount: Int64
    public var oldestTimestamp: Int64?
    public var newestTimestamp: Int64?
    /// File size in bytes (database pages, WAL included), when last measured.
    public var byteCount: Int64
    /// True when the chunk holds the message search index.
    public var searchIndex: Bool
    /// True when the chunk's ids follow its records' time: its rows in id order are in
    /// (timestamp, id) order. Measured from the file when a chunk is sealed (`ChunkSealer`), so
    /// nil (unknown) for an open chunk and in an older store's `Info.json`. A read that selects
    /// rows by id (a search index's or block sets' candidates) then asks SQLite for id order,
    /// which needs no sort, instead of sorting the whole rows by time (a temporary B-tree that
    /// spills to a file past 2 MiB). `ChunkReader` checks the order as it reads, so a chunk
    /// that does not keep it (a stranger's `Info.json`) is refused by name, never misordered.
    public var timeOrdered: Bool?
    /// How the chunk's records spread over its time range (`ChunkTimeSamples.times`), measured
    /// when it is sealed, so that a read which cuts its window into slices of equal records
    /// finds them here instead of opening the chunk and looking up its rows first (on the main
    /// thread, before any worker starts). Nil for an open chunk and in an older store's
    /// `Info.json`: the reader then samples the file. Only how a read shares its work between
    /// threads depends on them, never which records it reads, so a stranger's values cost at
    /// most time (`ChunkTimeSamples(stored:)` ignores any it cannot use).
    public var timeSamples: [Int64]?
    /// Which of 256 equal parts of the chunk's time range hold records (`ChunkTimeBuckets`),
    /// measured when it is sealed: a read of a window skips a sealed chunk whose parts under the
    /// window are empty without opening it. Nil for an open chunk and in an older store's
    /// `Info.json`, and ignored when not of the expected shape: the range alone decides then.
    public var timeBuckets: [Int64]?

    public init(file: String, sequence: Int64, sealed: Bool = false, recordCount: Int64 = 0,
                oldestTimestamp: Int64? = nil, newestTimestamp: Int64? = nil, byteCount: Int64 = 0, searchIndex: Bool = false,
                timeOrdered: Bool? = nil, timeSamples: [Int64]? = nil, timeBuckets: [Int64]? = nil) {
        self.file = file
        self.sequence = sequence
        self.sealed = sealed
        self.recordCount = recordCount
        self.oldestTimestamp = oldestTimestamp
        self.newestTimestamp = newestTimestamp
        self.byteCount = byteCount
        self.searchIndex = searchIndex
        self.timeOrdered = timeOrdered
        self.timeSamples = timeSamples
        self.timeBuckets = timeBuckets
    }

    static func fileName(sequence: Int64) -> String { StoreLayout.chunkFileName(sequence: sequence) }

    /// The sequence number from a file name, or nil when the name is not a chunk's.
    public static func sequence(fromFileName name: String) -> Int64? { StoreLayout.sequence(ofChunkFile: name) }
}

/// The contents of `Info.json`: what the store holds, for tools that do not open every chunk.
public struct StoreInfo: Codable, Sendable, Hashable {
    public var formatVersion: Int
    public var identifier: String
    public var oldestTimestamp: Int64?
    public var newestTimestamp: Int64?
    public var recordCount: Int64
    public var chunks: [ChunkInfo]

    public init(identifier: String = UUID().uuidString, chunks: [ChunkInfo] = []) {
        self.formatVersion = ChunkSchema.version
        self.identifier = identifier
        self.recordCount = 0
        self.chunks = chunks
        recomputeTotals()
    }

    /// Sets the store-wide figures from the chunks'.
    mutating func recomputeTotals() {
        chunks.sort { $0.sequence < $1.sequence }
        recordCount = chunks.reduce(0) { $0 + $1.recordCount }
        oldestTimestamp = chunks.compactMap(\.oldestTimestamp).min()
        newestTimestamp = chunks.compactMap(\.newestTimestamp).max()
    }

    /// The total size of the chunk files, as last measured.
    public var byteCount: Int64 { chunks.reduce(0) { $0 + $1.byteCount } }

    private enum CodingKeys: String, CodingKey {
        case formatVersion, identifier, oldestTimestamp, newestTimestamp, recordCount, chunks
    }

    /// Reads `Info.json`. A version-1 file has only `formatVersion` and `identifier`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        identifier = try container.decode(String.self, forKey: .identifier)
        oldestTimestamp = try container.decodeIfPresent(Int64.self, forKey: .oldestTimestamp)
        newestTimestamp = try container.decodeIfPresent(Int64.self, forKey: .newestTimestamp)
        recordCount = try container.decodeIfPresent(Int64.self, forKey: .recordCount) ?? 0
        chunks = try container.decodeIfPresent([ChunkInfo].self, forKey: .chunks) ?? []
    }
}

extension StoreInfo {
    /// The largest `Info.json` read: about 7,000 chunks at some 2,350 bytes an entry, time
    /// samples and buckets included (450 GB of 64 MB chunks), more than any store this machine
    /// keeps (diagd's quota is at most 4 GB unless set).
    public static let maximumFileSize: Int64 = 16 << 20

    /// Reads a store's `Info.json`, bounded and checked (`diag verify` reads a bundle's with it).
    public static func load(from url: URL) throws -> StoreInfo {
        let path = url.path
        let bytes = try readFile(path)
        if let info = bytes.withUnsafeBufferPointer({ fastDecode($0) }) { return info }
        let data = Data(bytes)
        do {
            return try JSONDecoder().decode(StoreInfo.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw StoreError(.badInfo, path: url.path, reason: "Info.json lacks \(describe(context.codingPath + [key]))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw StoreError(.badInfo, path: url.path, reason: "Info.json has a wrong value at \(describe(context.codingPath)): \(context.debugDescription)")
        } catch {
            // Foundation's own text ("The data couldn't be read because it isn't in the correct
            // format") says nothing of what is wrong; its debug description names the cause.
            let cause = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
                ?? ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            let detail = cause.map { "; \($0)" } ?? ""
            if case DecodingError.dataCorrupted = error {
                throw StoreError(.badInfo, path: url.path, reason: "Info.json is not valid JSON\(detail)")
            }
            throw StoreError(.badInfo, path: url.path, reason: "Info.json is not a JSON object of a store (formatVersion, identifier, chunks)\(detail)")
        }
    }

    /// The file's bytes, bounded before they are read (Info.json may come from a bundle made
    /// elsewhere): opened, checked to be a regular file of at most `maximumFileSize` bytes, and
    /// read through the same descriptor, so that what is checked is what is read. With POSIX
    /// calls rather than `Data(contentsOf:)`, whose first use in a process cost 0.15 ms of every
    /// query (Foundation's URL and file-reading set-up).
    static func readFile(_ path: String) throws -> [UInt8] {
        func failure(_ what: String) -> StoreError {
            StoreError(.badInfo, path: path, reason: "cannot read Info.json (\(what): \(String(cString: strerror(errno))))")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)  // a FIFO must not block the open
        guard descriptor >= 0 else { throw failure("open") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("fstat") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw StoreError(.badInfo, path: path, reason: "Info.json is not a regular file")
        }
        guard Int64(status.st_size) <= maximumFileSize else {
            throw StoreError(.badInfo, path: path, reason: "Info.json is \(status.st_size) bytes, over the bound of \(maximumFileSize) bytes")
        }
        // One byte more than the size says, to see a file that grew meanwhile (read to the bound).
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard Int64(count) <= maximumFileSize else {
                    throw StoreError(.badInfo, path: path, reason: "Info.json grew over the bound of \(maximumFileSize) bytes while read")
                }
                bytes.append(contentsOf: repeatElement(0, count: max(4096, count)))
            }
            let read = bytes.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw failure("read") }
            if read == 0 { break }
            count += read
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// `Info.json` read with the model's JSON scanner, member by member (`JSONPullParser`): a
    /// tenth of `JSONDecoder`'s time when it built the reader's `JSONValue` tree first (half a
    /// millisecond of every query of a 43-chunk store), and that tree's dictionaries and
    /// numbers were most of what was left (0.62 ms of the one-minute window over the 10M import
    /// of `Benchmarks/userpath.sh`, 47 chunks, 111 KB). Nil for anything but a well-formed file
    /// of the expected shape, which `JSONDecoder` then reads again to say what is wrong. Unknown
    /// keys are skipped (their values checked). A known key given twice in an object is left to
    /// `JSONDecoder` too, which takes the first value, where the tree took the last: the two
    /// readers never disagree on a file.
    static func fastDecode(_ bytes: UnsafeBufferPointer<UInt8>) -> StoreInfo? {
        var parser = JSONPullParser(bytes)
        var formatVersion: Int?
        var identifier: String?
        var oldest: Int64?
        var newest: Int64?
        var recordCount: Int64?
        var chunks: [ChunkInfo] = []
        // The keys `JSONDecoder` reads (`CodingKeys`), each at most once (a bit each: a `Set`
        // per object cost 0.1 ms of the 47-chunk file); any other key is skipped in one pass (a
        // stranger's file may hold millions).
        var seen: UInt32 = 0
        do {
            guard try parser.beginObject() else { return nil }
            while let name = try parser.nextKey() {
                guard let key = CodingKeys(rawValue: name) else {
                    try parser.skipValue()
                    continue
                }
                guard Self.firstTime(Self.bit(key), in: &seen) else { return nil }
                switch key {
                case .formatVersion:
                    guard let version = try parser.int() else { return nil }
                    formatVersion = Int(exactly: version)
                case .identifier:
                    guard let text = try parser.string() else { return nil }
                    identifier = text
                case .oldestTimestamp: guard let value = try optionalInteger(&parser) else { return nil }; oldest = value
                case .newestTimestamp: guard let value = try optionalInteger(&parser) else { return nil }; newest = value
                case .recordCount: guard let value = try optionalInteger(&parser) else { return nil }; recordCount = value
                case .chunks:
                    chunks = []
                    if try parser.null() { break }
                    guard try parser.beginArray() else { return nil }
                    while try parser.nextElement() {
                        guard let chunk = try ChunkInfo.fastDecode(&parser) else { return nil }
                        chunks.append(chunk)
                    }
                }
            }
            guard parser.atEnd() else { return nil }
        } catch {
            return nil
        }
        guard let formatVersion, let identifier else { return nil }
        var info = StoreInfo(identifier: identifier, chunks: [])
        info.formatVersion = formatVersion
        info.oldestTimestamp = oldest
        info.newestTimestamp = newest
        info.recordCount = recordCount ?? 0
        info.chunks = chunks
        return info
    }

    private static func bit(_ key: CodingKeys) -> UInt32 {
        switch key {
        case .formatVersion: 1 << 0
        case .identifier: 1 << 1
        case .oldestTimestamp: 1 << 2
        case .newestTimestamp: 1 << 3
        case .recordCount: 1 << 4
        case .chunks: 1 << 5
        }
    }

    /// False when `bit` is already in `seen` (a key given twice); else adds it.
    fileprivate static func firstTime(_ bit: UInt32, in seen: inout UInt32) -> Bool {
        guard seen & bit == 0 else { return false }
        seen |= bit
        return true
    }

    /// `.some(nil)` for a null, `.some(n)` for an integer, nil (not this shape) for anything else.
    fileprivate static func optionalInteger(_ parser: inout JSONPullParser) throws(JSONReaderError) -> Int64?? {
        if try parser.null() { return .some(nil) }
        guard let value = try parser.int() else { return nil }
        return .some(value)
    }

    /// `.some(nil)` for a null, `.some(list)` for an array of integers, nil (not this shape) for
    /// anything else.
    fileprivate static func optionalIntegers(_ parser: inout JSONPullParser) throws(JSONReaderError) -> [Int64]?? {
        if try parser.null() { return .some(nil) }
        guard try parser.beginArray() else { return nil }
        var numbers: [Int64] = []
        numbers.reserveCapacity(72)
        while try parser.nextElement() {
            guard let value = try parser.int() else { return nil }
            numbers.append(value)
        }
        return .some(numbers)
    }

    private static func describe(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
    }

    /// Writes `Info.json` atomically: a temporary file in the same folder, then a rename.
    func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(self)
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(StoreLayout.infoFile).\(getpid()).tmp")
            try data.write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw StoreError(.io, path: url.path, reason: "cannot replace Info.json: \(reason)")
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.io, path: url.path, reason: "cannot write Info.json: \(error.localizedDescription)")
        }
    }
}

extension ChunkInfo {
    /// One entry of `Info.json`'s `chunks`, the cursor on it (`StoreInfo.fastDecode`), by the
    /// keys `JSONDecoder` reads (`CodingKeys`), each at most once; nil when it is not of the
    /// expected shape.
    fileprivate static func fastDecode(_ parser: inout JSONPullParser) throws(JSONReaderError) -> ChunkInfo? {
        guard try parser.beginObject() else { return nil }
        var file: String?, sequence: Int64?, sealed: Bool?, recordCount: Int64?, byteCount: Int64?, searchIndex: Bool?
        var oldest: Int64?, newest: Int64?, timeOrdered: Bool?, timeSamples: [Int64]?, timeBuckets: [Int64]?
        var seen: UInt32 = 0
        while let name = try parser.nextKey() {
            guard let key = CodingKeys(stringValue: name) else {
                try parser.skipValue()
                continue
            }
            guard StoreInfo.firstTime(bit(key), in: &seen) else { return nil }
            switch key {
            case .file: guard let value = try parser.string() else { return nil }; file = value
            case .sequence: guard let value = try parser.int() else { return nil }; sequence = value
            case .sealed: guard let value = try parser.bool() else { return nil }; sealed = value
            case .recordCount: guard let value = try parser.int() else { return nil }; recordCount = value
            case .byteCount: guard let value = try parser.int() else { return nil }; byteCount = value
            case .searchIndex: guard let value = try parser.bool() else { return nil }; searchIndex = value
            case .oldestTimestamp: guard let value = try StoreInfo.optionalInteger(&parser) else { return nil }; oldest = value
            case .newestTimestamp: guard let value = try StoreInfo.optionalInteger(&parser) else { return nil }; newest = value
            case .timeOrdered:
                if try parser.null() { timeOrdered = nil; break }
                guard let value = try parser.bool() else { return nil }
                timeOrdered = value
            case .timeSamples: guard let value = try StoreInfo.optionalIntegers(&parser) else { return nil }; timeSamples = value
            case .timeBuckets: guard let value = try StoreInfo.optionalIntegers(&parser) else { return nil }; timeBuckets = value
            }
        }
        guard let file, let sequence, let sealed, let recordCount, let byteCount, let searchIndex else { return nil }
        return Self(file: file, sequence: sequence, sealed: sealed, recordCount: recordCount,
                         oldestTimestamp: oldest, newestTimestamp: newest, byteCount: byteCount, searchIndex: searchIndex,
                         timeOrdered: timeOrdered, timeSamples: timeSamples, timeBuckets: timeBuckets)
    }

    private static func bit(_ key: CodingKeys) -> UInt32 {
        switch key {
        case .file: 1 << 0
        case .sequence: 1 << 1
        case .sealed: 1 << 2
        case .recordCount: 1 << 3
        case .byteCount: 1 << 4
        case .searchIndex: 1 << 5
        case .oldestTimestamp: 1 << 6
        case .newestTimestamp: 1 << 7
        case .timeOrdered: 1 << 8
        case .timeSamples: 1 << 9
        case .timeBuckets: 1 << 10
        }
    }
}
