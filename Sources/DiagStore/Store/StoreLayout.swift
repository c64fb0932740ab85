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
/// ```
public enum StoreLayout {
    /// The store's summary: format version, identifier, figures, the list of chunks.
    public static let infoFile = "Info.json"
    /// The folder of the chunk files.
    public static let chunkFolder = "Persist"
    /// The end of every chunk file's name, after its 16-digit sequence number.
    public static let chunkSuffix = ".chunk.sqlite"
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
