import DiagModel
import Foundation

/// A log store: a directory (the `.logarchive` of this system) with `Info.json` and SQLite
/// chunk files under `Persist/` (docs/STORE.md).
///
/// One process writes a store (diagd, or `diag import`); any number read it. Within a process,
/// the value may be shared between threads: appends are serialized, reads use their own
/// connections.
public final class LogStore: @unchecked Sendable {
    // Safe to share: every mutable field lives in `state`, read and written under `lock` (a
    // `FieldLock`: the state holds the writer's SQLite connection, which is not `Sendable`).

    public struct Options: Sendable {
        /// A chunk closes once its database reaches this many bytes, and a new one opens.
        public var chunkSizeLimit: Int64
        /// Open for reading only: nothing is written, migrated or created.
        public var readOnly: Bool
        /// Seal a chunk (build its indexes) on the appending thread right when it closes; when
        /// false, the caller runs `sealPendingChunks()` off the ingest path.
        public var sealOnRotation: Bool
        /// Rows per transaction when migrating a chunk written by an older version.
        public var migrationBatchSize: Int
        /// How often appends refresh `Info.json`, at most.
        public var infoRefreshSeconds: Double
        /// Leave the open chunk's WAL whole until the chunk is sealed, and have the seal fold it
        /// into the file (diagd, whose seals run on a thread of their own), instead of copying it
        /// into the file every 32 MiB on a checkpoint thread beside the writer and once more when
        /// the writer closes the chunk, on the writer's thread (docs/STORE.md, "Writing"). A
        /// closed chunk's connection stays open until its seal (at most `maximumWaitingFolds`
        /// chunks: past that, the oldest is folded on a thread of its own), so that readers keep
        /// finding its WAL index instead of rebuilding it from the whole WAL at each open.
        public var foldsWALAtSeal: Bool
        /// Write the chunks that open during a burst (from a batch of `burstBatchBytes` or more
        /// to `burstEndBatches` batches in a row under `burstEndBatchBytes`) in 64 KiB pages
        /// under `Persist/Burst/`, and have each one's seal copy it into 4 KiB pages under
        /// `Persist/` (diagd; docs/STORE.md, "Chunks written in a burst"). Needs `foldsWALAtSeal` and `sealOnRotation` false: the seal
        /// runs off the appending thread.
        public var writesBurstsInLargePages: Bool

        public init(chunkSizeLimit: Int64 = 64 << 20, readOnly: Bool = false, sealOnRotation: Bool = true,
                    migrationBatchSize: Int = 50_000, infoRefreshSeconds: Double = 1, foldsWALAtSeal: Bool = false,
                    writesBurstsInLargePages: Bool = false) {
            self.chunkSizeLimit = chunkSizeLimit
            self.readOnly = readOnly
            self.sealOnRotation = sealOnRotation
            self.migrationBatchSize = migrationBatchSize
            self.infoRefreshSeconds = infoRefreshSeconds
            self.foldsWALAtSeal = foldsWALAtSeal
            self.writesBurstsInLargePages = writesBurstsInLargePages
        }

        /// A batch of packed rows this large starts a burst: chunks that open while it lasts are
        /// in 64 KiB pages.
        public static let burstBatchBytes = 1 << 20
        /// `burstEndBatches` batches in a row under this many bytes end the burst: its chunk
        /// closes after the last, and the next opens in 4 KiB pages unless a burst has started
        /// again. A chunk in 64 KiB pages written a few records a commit would write a whole
        /// 64 KiB page to its WAL at each commit. One small batch was the end until it was
        /// measured: through diagd at 10M records (`Benchmarks/userpath.sh`, one sender at some
        /// 126,000 records/s, whose batches waver about the bounds), 118 chunks instead of 52.
        public static let burstEndBatchBytes = 64 << 10
        public static let burstEndBatches = 16

        public static var readOnly: Options { Options(readOnly: true) }
    }

    struct State {
        var info: StoreInfo
        var writer: ChunkWriter?
        var writerChunk: String?
        /// With `foldsWALAtSeal`: the connections of closed chunks whose WAL the seal has not
        /// folded yet, by chunk file, kept open until then (`retireWriterLocked`).
        var waitingFolds: [String: ChunkWriter] = [:]
        /// The lock that makes this value the store's only appender, once it has appended.
        var writerLock: WriterLock?
        var sealing: Set<String> = []
        /// Chunks this value closed: never reopened for appends, even before they are sealed.
        var closed: Set<String> = []
        /// Unsealed chunks whose count and time range in `info` are final, so that a read can
        /// leave them out by their range as it does sealed ones (`chunksToRead`): listed in
        /// Info.json when this value opened the store, below a listed chunk of a higher sequence.
        /// A writer lists a chunk only once the one before it is closed, with that chunk's final
        /// range (`LogStore+Writing`), and a writer's open measures every unsealed chunk again
        /// (`reconcile`). A chunk found in `Persist/` but not listed is never in it: Info.json
        /// may have failed to be saved when its writer closed the chunk before.
        var finalRanges: Set<String> = []
        /// Whether a burst is under way (`LogStore.noteBurstLocked`), and the batches under
        /// `Options.burstEndBatchBytes` in a row since its last larger one.
        var inBurst = false
        var smallBatchesInBurst = 0
        var lastInfoSave = ContinuousClock.now
    }

    public let url: URL
    public let options: Options
    let lock = FieldLock()
    var state: State

    var infoURL: URL { StoreLayout.infoURL(url) }
    var persistURL: URL { StoreLayout.chunkFolderURL(url) }
    /// `persistURL`'s path, kept: building URLs was a tenth of opening a store of 43 chunks.
    private let persistPath: String
    /// A read-only value's mark on the store while it lives, so that diagd's background work
    /// leaves the cores to the read (`StoreReaders`).
    let readerMark: StoreReaders.Mark?

    /// The path of a chunk file now: `Persist/<file>`, or `Persist/Burst/<file>` for a chunk
    /// written in a burst and not sealed yet (`StoreLayout.chunkPath(persist:file:)`; file names
    /// come from those folders themselves).
    func chunkPath(_ file: String) -> String { StoreLayout.chunkPath(persist: persistPath, file: file) }

    /// Where a new chunk written in a burst goes: `Persist/Burst/<file>`.
    func burstChunkPath(_ file: String) -> String { persistPath + "/" + StoreLayout.burstFolder + "/" + file }

    /// Where the sealed copy of a burst's chunk goes, and where any chunk not written in a burst is.
    func sealedChunkPath(_ file: String) -> String { persistPath + "/" + file }

    private init(url: URL, options: Options, info: StoreInfo) {
        self.url = url
        self.options = options
        self.state = State(info: info)
        persistPath = StoreLayout.chunkFolderPath(url)
        readerMark = options.readOnly ? StoreReaders.Mark(storeURL: url) : nil
    }

    /// Opens the store at `url`, creating it when `create` is true and there is none.
    ///
    /// A store written by an older version is upgraded in place (in batches, resumable);
    /// figures of chunks left open by a crash are read again from the files.
    public static func open(at url: URL, create: Bool = false, options: Options = Options()) throws -> LogStore {
        let manager = FileManager.default
        let infoURL = StoreLayout.infoURL(url)
        let persistURL = StoreLayout.chunkFolderURL(url)
        var isDirectory: ObjCBool = false
        let exists = manager.fileExists(atPath: url.path, isDirectory: &isDirectory)
        if exists && !isDirectory.boolValue {
            throw StoreError(.notFound, path: url.path, reason: "not a log store: a file, where a store directory was expected")
        }
        let hasInfo = manager.fileExists(atPath: infoURL.path)
        let chunkFiles = try listChunkFiles(in: persistURL)
        var info: StoreInfo
        var needsSave = false
        if hasInfo {
            info = try StoreInfo.load(from: infoURL)
        } else if !chunkFiles.isEmpty {
            // Info.json lost but chunks present: rebuild it from the chunks, losing nothing.
            info = StoreInfo()
            needsSave = true
        } else if create && !options.readOnly {
            do {
                try manager.createDirectory(at: persistURL, withIntermediateDirectories: true)
            } catch {
                throw StoreError(.io, path: url.path, reason: "cannot create the store directory: \(error.localizedDescription)")
            }
            info = StoreInfo()
            try info.save(to: infoURL)
        } else {
            throw StoreError(.notFound, path: url.path,
                             reason: "no log store here (no Info.json\(exists ? "" : ", no such directory")); diagd or `diag import` creates one")
        }
        if info.formatVersion > ChunkSchema.version {
            throw StoreError(.unsupportedVersion, path: infoURL.path,
                             reason: "store format version \(info.formatVersion) is newer than this tool's (\(ChunkSchema.version))")
        }
        if info.formatVersion < 1 {
            throw StoreError(.badInfo, path: infoURL.path, reason: "formatVersion \(info.formatVersion) is not a store version; accepted: 1 to \(ChunkSchema.version)")
        }
        let store = LogStore(url: url, options: options, info: info)
        try store.reconcile(chunkFiles: chunkFiles, forceSave: needsSave)
        return store
    }

    /// The chunk files' names under `Persist/` and `Persist/Burst/`, each once (a chunk in both,
    /// a seal interrupted after its copy was renamed into place, is the sealed copy).
    /// Read with `readdir`: only the names that end as a chunk's are made into Strings (a chunk's
    /// `-wal` and `-shm` are two thirds of a busy folder), where `FileManager` made one of every
    /// entry; every command that opens a store lists the folder first.
    static func listChunkFiles(in persistURL: URL) throws -> [String] {
        var names: Set<String> = []
        for folder in [persistURL.path, persistURL.appendingPathComponent(StoreLayout.burstFolder, isDirectory: true).path] {
            guard let directory = opendir(folder) else {
                if errno == ENOENT { continue }
                throw StoreError(.io, path: folder, reason: "cannot list chunk files: \(String(cString: strerror(errno)))")
            }
            defer { closedir(directory) }
            while true {
                errno = 0
                guard let entry = readdir(directory) else {
                    guard errno == 0 else {
                        throw StoreError(.io, path: folder, reason: "cannot list chunk files: \(String(cString: strerror(errno)))")
                    }
                    break
                }
                let name: String? = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    let length = bytes.firstIndex(of: 0) ?? bytes.count
                    guard Self.endsAsChunkFile(UnsafeBufferPointer(rebasing: bytes[..<length])) else { return nil }
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<length]), as: UTF8.self)
                }
                if let name, ChunkInfo.sequence(fromFileName: name) != nil { names.insert(name) }
            }
        }
        return names.sorted()
    }

    private static let chunkSuffixBytes = Array(StoreLayout.chunkSuffix.utf8)

    /// Whether `name` ends with `.chunk.sqlite`, on its bytes.
    private static func endsAsChunkFile(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let suffix = chunkSuffixBytes
        guard name.count > suffix.count else { return false }
        return name[(name.count - suffix.count)...].elementsEqual(suffix)
    }

    /// What `Info.json` says now (kept current by this value's own writes).
    public var info: StoreInfo {
        var info = lock.withLock { state.info }
        info.recomputeTotals()
        return info
    }

    /// Writes `Info.json` with the latest figures and closes the open chunk's connection.
    public func close() throws {
        guard !options.readOnly else { return }
        try lock.withLock {
            if let writer = state.writer, let path = state.writerChunk {
                try refreshWriterSize(writer, file: path)
                writer.checkpointOnClose()
            }
            state.writer = nil
            state.writerChunk = nil
            // The open chunk and the closed chunks not sealed yet are folded as their connections
            // close: the next open's readers then find no WAL to rebuild an index of. (Until
            // 2026-12-05 the open chunk's was left: after diagd stopped, every read of its store
            // rebuilt the index of a WAL of up to 64 MB, 44 MB in `Benchmarks/userpath.sh`.)
            for writer in state.waitingFolds.values { writer.checkpointOnClose() }
            state.waitingFolds = [:]
            try saveInfoLocked()
            state.writerLock = nil
        }
    }

    deinit {
        if !options.readOnly, state.writer != nil { try? state.info.save(to: infoURL) }
    }

    /// Saves `Info.json`; the caller holds `lock`.
    func saveInfoLocked() throws {
        state.info.recomputeTotals()
        try state.info.save(to: infoURL)
        state.lastInfoSave = .now
    }
}
