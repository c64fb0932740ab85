import DiagStore
import Foundation

/// Consistent copies of SQLite files that their owners may be writing right now.
///
/// A copy goes through SQLite's online backup API in one step, so it reads one committed state
/// under a read transaction (WAL readers do not block the writer); a byte copy of a live WAL
/// database could mix pages of two states. The copy is switched to rollback journaling, so it
/// is one self-contained file.
enum SQLiteSnapshot {
    /// Copies the database open on `source` to `destination` (which must not exist).
    ///
    /// The copy is a staged file: it is archived and removed, and the bundle is synced once
    /// complete, so it is written without syncs or a journal (a crash leaves no bundle at all).
    /// A file no one can change meanwhile is copied byte for byte (`QuiescentFileCopy`).
    static func copy(_ source: SnapshotSource, to destination: String) throws {
        do {
            if try !QuiescentFileCopy.copy(source, to: destination) {
                try source.database.backup(toPath: destination, pagesPerStep: -1, durability: .temporary)
            }
            let copy = try Database(path: destination, options: .init(create: false))
            try copy.execute("PRAGMA synchronous = OFF")
            _ = try copy.scalarText("PRAGMA journal_mode = DELETE")
        } catch {
            throw BundleError.failure("cannot snapshot \(source.database.path): \(error)")
        }
    }

    /// Opens `path` for reading without changing it: read-only, so closing it never checkpoints
    /// or removes the owner's WAL. The first read maps the file, its WAL and shared memory, so
    /// the connection keeps them readable even if the owner deletes them afterwards.
    static func openSource(_ path: String) throws -> SnapshotSource {
        do {
            let before = SnapshotSource.FileIdentity(path: path)
            let database = try Database(path: path, options: .init(readOnly: true, busyTimeoutMilliseconds: 10_000))
            _ = try database.scalarInt("SELECT count(*) FROM sqlite_master")
            let after = SnapshotSource.FileIdentity(path: path)
            return SnapshotSource(database: database, identity: before == after ? before : nil)
        } catch let error as SQLiteError where error.isCorruption {
            throw BundleError.badInput("\(path) is not an SQLite database or is damaged (\(error)); --store-file takes a component's SQLite store")
        } catch {
            throw BundleError.failure("cannot open \(path) for a snapshot: \(error)")
        }
    }

    /// `PRAGMA integrity_check`'s verdict on a file: "ok" or SQLite's list of problems.
    static func integrity(of path: String) throws -> String {
        let database = try Database(path: path, options: .init(readOnly: true))
        return try database.scalarText("PRAGMA integrity_check") ?? "no answer"
    }
}

/// A component's store file (`--store-file`): its consistent snapshot and, for forensics, its
/// `-wal` and `-shm` files byte for byte as they were found.
struct StoreFileSnapshot {
    var name: String
    var sourcePath: String
    /// Relative paths inside the bundle, with the staged file each one comes from.
    var files: [(bundlePath: String, staged: URL)]

    /// Stages `path` under `staging/stores/<name>/`.
    static func take(path: String, name: String, staging: URL) throws -> StoreFileSnapshot {
        let fileName = URL(fileURLWithPath: path).lastPathComponent
        let folder = "\(BundleLayout.stores)/\(name)"
        let stagedFolder = staging.appendingPathComponent(folder, isDirectory: true)
        let asFound = stagedFolder.appendingPathComponent(BundleLayout.asFound, isDirectory: true)
        try FileManager.default.createDirectory(at: asFound, withIntermediateDirectories: true)
        var files: [(String, URL)] = []
        // The raw side files first, before this process's own connection touches the -shm.
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            let staged = asFound.appendingPathComponent(fileName + suffix)
            do {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: staged.path)
            } catch {
                throw BundleError.failure("cannot copy \(path + suffix): \(error.localizedDescription)")
            }
            files.append(("\(folder)/\(BundleLayout.asFound)/\(fileName + suffix)", staged))
        }
        let source = try SQLiteSnapshot.openSource(path)
        let staged = stagedFolder.appendingPathComponent(fileName)
        try SQLiteSnapshot.copy(source, to: staged.path)
        files.insert(("\(folder)/\(fileName)", staged), at: 0)
        return StoreFileSnapshot(name: name, sourcePath: path, files: files)
    }

    /// A name for each `--store-file`: the file's name without its extension, made unique.
    static func names(for paths: [String]) -> [String] {
        var used: Set<String> = []
        return paths.map { path in
            let url = URL(fileURLWithPath: path)
            var base = url.deletingPathExtension().lastPathComponent
            if base.isEmpty || base == "." || base == ".." { base = "store" }
            var name = base
            var counter = 2
            while used.contains(name) {
                name = "\(base)-\(counter)"
                counter += 1
            }
            used.insert(name)
            return name
        }
    }
}
