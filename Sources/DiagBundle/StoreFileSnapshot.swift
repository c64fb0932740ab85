import DiagStore
import Foundation

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
        let staged = stagedFolder.appendingPathComponent(fileName)
        do {
            try SQLiteSnapshot.copy(try SQLiteSnapshot.openSource(path), to: staged.path)
        } catch let error as SnapshotError where error.isBadInput {
            throw BundleError.badInput("\(error.message); --store-file takes a component's SQLite store")
        } catch let error as SnapshotError {
            throw BundleError(error)
        }
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
