import Foundation

/// The names a log store has on disk (docs/ARCHITECTURE.md, "The chunk schema"), spelled here
/// only: every other module reaches a store's files through these, so that a change of layout
/// is made in one place (`StoreLayoutSpellingTests` fails if a source outside DiagStore spells one).
///
/// ```
/// <store>/Info.json                          the store's summary (`StoreInfo`)
/// <store>/writer.lock                        held by the one appender (`WriterLock`)
/// <store>/readers.lock                       shared by readers, looked at by diagd (`StoreReaders`)
/// <store>/Persist/0000000000000001.chunk.sqlite   one SQLite file per chunk
/// <store>/Persist/Burst/0000000000000002.chunk.sqlite   a chunk diagd writes in a burst, until its seal
/// ```
public enum StoreLayout {
    /// The store's summary: format version, identifier, figures, the list of chunks.
    public static let infoFile = "Info.json"
    /// The folder of the chunk files.
    public static let chunkFolder = "Persist"
    /// The end of every chunk file's name, after its 16-digit sequence number.
    public static let chunkSuffix = ".chunk.sqlite"
    /// The folder under `Persist/` of the chunks diagd writes in a burst, in pages of
    /// `burstPageSize` bytes, until their seal copies each into 4 KiB pages under `Persist/`
    /// with the same name and removes it (docs/STORE.md, "Chunks written in a burst").
    public static let burstFolder = "Burst"
    /// SQLite's largest page: a burst's writer touches a sixteenth of the pages it would in 4 KiB.
    public static let burstPageSize = 65_536
    /// The end of the name of a sealed copy being written (`<chunk file>.sealing`), under
    /// `Persist/`: renamed to the chunk's name once whole, removed if found by a writer.
    public static let sealingSuffix = ".sealing"
    /// The file whose `flock` the store's only appender holds.
    public static let writerLock = "writer.lock"
    /// The file whose shared `flock` readers hold while they read (`StoreReaders`).
    public static let readersLock = "readers.lock"
    /// The files SQLite may keep beside a chunk, by the suffix added to the chunk's name.
    public static let chunkSideSuffixes = ["-wal", "-shm", "-journal"]
    /// The table of records in every chunk, and the message search index beside it.
    public static let recordsTable = "records"
    public static let searchTable = "message_search"
    /// The writer's per-block trigram sets (`MessageBlocks`), beside the records they cover.
    public static let messageBlocksTable = "message_blocks"
    /// Their per-record trigram masks, 64 to a block (`MessageBlocks.masksTable`).
    public static let recordMasksTable = "message_record_masks"
    /// The sets turned around at the seal: for each trigram position, the blocks holding it.
    public static let positionBlocksTable = "message_position_blocks"
    /// The index a sealed chunk has (`ChunkSchema.indexes`' first): its presence marks a chunk sealed.
    public static let timestampIndex = "records_timestamp"

    /// `Info.json` inside the store, and its path relative to the store (`Info.json`).
    public static func infoURL(_ store: URL) -> URL { store.appendingPathComponent(infoFile) }
    public static var infoPath: String { infoFile }

    /// The `Persist/` folder of a store.
    public static func chunkFolderURL(_ store: URL) -> URL { store.appendingPathComponent(chunkFolder, isDirectory: true) }

    /// A chunk file of a store, by its name under `Persist/`.
    public static func chunkURL(_ store: URL, file: String) -> URL { chunkFolderURL(store).appendingPathComponent(file) }

    /// The `Persist/Burst/` folder of a store.
    public static func burstFolderURL(_ store: URL) -> URL { chunkFolderURL(store).appendingPathComponent(burstFolder, isDirectory: true) }

    /// Where chunk `file` of the store whose `Persist/` folder is `persist` is now: under
    /// `Persist/` when it is there (sealed, or never written in a burst), else under
    /// `Persist/Burst/` when it is there, else (gone) under `Persist/`. A seal renames the
    /// sealed copy into `Persist/` before it removes the burst's file, so a chunk is always at
    /// one of the two.
    public static func chunkPath(persist: String, file: String) -> String {
        let sealed = persist + "/" + file
        if access(sealed, F_OK) == 0 { return sealed }
        let burst = persist + "/" + burstFolder + "/" + file
        return access(burst, F_OK) == 0 ? burst : sealed
    }

    /// The `Persist/` folder's path, without a trailing `/`.
    public static func chunkFolderPath(_ store: URL) -> String {
        var persist = chunkFolderURL(store).path
        while persist.count > 1, persist.hasSuffix("/") { persist.removeLast() }
        return persist
    }

    /// `chunkPath(persist:file:)` of a store's directory.
    public static func currentChunkURL(_ store: URL, file: String) -> URL {
        URL(fileURLWithPath: chunkPath(persist: chunkFolderPath(store), file: file))
    }

    /// The path to open for a chunk that was at `path` when a read planned it: `path`, or,
    /// when that was a burst's file and it is gone, its sealed copy's under `Persist/` (the
    /// seal put it there before removing the burst's). A reader that opened the burst's file
    /// before it went keeps reading it: its WAL was folded into it first.
    public static func openableChunkPath(_ path: String) -> String {
        guard access(path, F_OK) != 0, let sealed = sealedPath(ofBurst: path) else { return path }
        return sealed
    }

    /// Runs `open` on `path`, which returns nil when there is no file there; when that was a
    /// burst's file and it is gone, or went while `open` had it, runs `open` once more on its
    /// sealed copy's path. A connection opened just before the seal removed the file and its
    /// WAL, and read just after, cannot read it (SQLite finds no WAL index to map), where the
    /// copy has every row. The usual open, of a file that is there, costs no more than before.
    public static func openingChunk<T>(at path: String, _ open: (String) throws -> T?) throws -> T? {
        do {
            if let opened = try open(path) { return opened }
        } catch {
            guard let sealed = sealedPath(ofBurst: path), access(path, F_OK) != 0 else { throw error }
            return try open(sealed)
        }
        guard let sealed = sealedPath(ofBurst: path) else { return nil }
        return try open(sealed)
    }

    /// True for a path under `Persist/Burst/`: a burst's chunk not sealed yet.
    public static func isBurstChunk(_ path: String) -> Bool { sealedPath(ofBurst: path) != nil }

    /// `…/Persist/<file>` for `…/Persist/Burst/<file>`; nil for any other path.
    public static func sealedPath(ofBurst path: String) -> String? {
        let marker = "/" + burstFolder + "/"
        guard let range = path.range(of: marker, options: .backwards),
              !path[range.upperBound...].contains("/") else { return nil }
        return path.replacingCharacters(in: range, with: "/")
    }

    /// The path of a chunk relative to its store (`Persist/<file>`), as bundles list it.
    public static func chunkPath(file: String) -> String { chunkFolder + "/" + file }

    /// The writer lock of a store.
    public static func writerLockURL(_ store: URL) -> URL { store.appendingPathComponent(writerLock) }

    /// The readers' lock of a store.
    public static func readersLockURL(_ store: URL) -> URL { store.appendingPathComponent(readersLock) }

    /// True when `store` holds an `Info.json`: a store, and not (say) Apple's `.logarchive`.
    public static func hasInfo(_ store: URL) -> Bool { FileManager.default.fileExists(atPath: infoURL(store).path) }

    /// True when `store` holds an `Info.json` or a `Persist/` folder (a store whose Info.json
    /// was lost is rebuilt from its chunks when opened).
    public static func looksLikeStore(_ store: URL) -> Bool {
        hasInfo(store) || FileManager.default.fileExists(atPath: chunkFolderURL(store).path)
    }

    /// The name of the chunk file of a sequence number: 16 digits, zero-padded, then the suffix.
    public static func chunkFileName(sequence: Int64) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits + chunkSuffix
    }

    /// The sequence number from a file name, or nil when the name is not a chunk's.
    public static func sequence(ofChunkFile name: String) -> Int64? {
        guard name.hasSuffix(chunkSuffix) else { return nil }
        let stem = name.dropLast(chunkSuffix.count)
        guard !stem.isEmpty, stem.allSatisfy(\.isASCII), stem.allSatisfy(\.isNumber) else { return nil }
        return Int64(stem)
    }

    /// True for a chunk file's name (any stem), false for its side files and anything else.
    public static func isChunkFile(_ name: String) -> Bool { name.hasSuffix(chunkSuffix) }

    /// True for a side file SQLite keeps beside a chunk (`…chunk.sqlite-wal`, `-shm`, `-journal`).
    public static func isChunkSideFile(_ name: String) -> Bool {
        chunkSideSuffixes.contains { name.hasSuffix(chunkSuffix + $0) }
    }

    /// The chunk files under a store's `Persist/`, by name (so in sequence order); none when
    /// the folder is missing or unreadable.
    public static func chunkFiles(in store: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: chunkFolderURL(store).path)) ?? []).filter(isChunkFile).sorted()
    }
}
