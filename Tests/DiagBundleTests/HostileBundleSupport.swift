@testable import DiagBundle
import DiagStore
import Foundation
import TestSupport

/// The SQL of a chunk of the first release (`ChunkMigration`'s comment), as tests write it.
let version1LogTable = """
    CREATE TABLE log (time REAL NOT NULL, level TEXT NOT NULL, proc TEXT, pid INTEGER,
                      sender TEXT, subsystem TEXT, category TEXT, tid INTEGER, activity INTEGER, msg TEXT)
    """

/// The records table as version 2 of the store wrote it (before `signpostScope`).
let version2RecordsTable = """
    CREATE TABLE records (
      id INTEGER PRIMARY KEY, timestamp INTEGER NOT NULL, receiptTime INTEGER,
      messageType INTEGER NOT NULL, eventType INTEGER NOT NULL,
      process TEXT, processID INTEGER, processImagePath TEXT, userID INTEGER,
      sender TEXT, senderImagePath TEXT, subsystem TEXT, category TEXT,
      threadID INTEGER, activityIdentifier INTEGER, parentActivityIdentifier INTEGER, traceID INTEGER,
      eventMessage TEXT NOT NULL, formatString TEXT,
      signpostID INTEGER, signpostName TEXT, signpostType TEXT,
      metadata TEXT
    )
    """

/// The records table exactly as the store writes it now.
let currentRecordsTable = version2RecordsTable.replacingOccurrences(of: "metadata TEXT\n", with: "metadata TEXT,\n  signpostScope TEXT\n")

/// A bundle archive as a stranger could write it: the files every bundle has, a manifest that
/// lists them all with their true digests (so `verify` finds nothing else to object to), and a
/// store whose one chunk is made by running `chunkSQL` on a fresh SQLite file.
func makeBundle(
    in folder: TemporaryDirectory, named name: String = "hostile.tar.gz", formatVersion: Int = 2,
    chunkSQL: String, bind: ((Database) throws -> Void)? = nil, extra: [(String, [UInt8])] = [],
    info givenInfo: [UInt8]? = nil
) throws -> URL {
    let chunk = folder.file("\(name).chunk.sqlite")
    try? FileManager.default.removeItem(at: chunk)
    do {
        let database = try Database(path: chunk.path)
        try database.execute(chunkSQL)
        try bind?(database)
    }
    let info = #"{"formatVersion": \#(formatVersion), "identifier": "7C1D4F0E-0000-4000-8000-000000000002"}"#
    let archive = folder.file(name)
    let top = "diagnose_hostile"
    try makeArchive(archive) { writer in
        try writer.addDirectory(top)
        var manifest = BundleManifest(kind: "collect", toolVersion: "test", host: "elsewhere", kernel: "Linux", created: 1)
        let files: [(String, [UInt8])] = [
            ("\(BundleLayout.logStore)/Info.json", givenInfo ?? Array(info.utf8)),
            ("\(BundleLayout.logStore)/Persist/0000000000000001.chunk.sqlite", Array(try Data(contentsOf: chunk))),
            (BundleLayout.stats, Array("{}".utf8)),
            (BundleLayout.errors, Array("no errors\n".utf8)),
            (BundleLayout.report, Array("<!DOCTYPE html><title>r</title>".utf8)),
        ] + extra
        for (path, contents) in files {
            var digest = try writer.addFile("\(top)/\(path)", contents: contents)
            digest.path = path
            manifest.files.append(digest)
        }
        try writer.addFile("\(top)/manifest.json", contents: Array(try manifest.jsonData()))
    }
    return archive
}

/// Runs `diag` with a cache of its own under `folder`.
func diag(_ arguments: [String], cacheIn folder: TemporaryDirectory, environment: [String: String] = [:]) throws -> ProcessOutput {
    var environment = environment
    environment["XDG_CACHE_HOME"] = folder.file("cache").path
    return try run(BuiltProducts.path("diag"), arguments, environment: environment)
}

/// The entries of the bundle cache that are not the cache's own bookkeeping (`index/`).
func cachedBundles(_ folder: TemporaryDirectory) -> [String] {
    let cache = folder.file("cache/diag/bundles")
    return ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).filter { $0 != "index" }.sorted()
}
