import DiagModel
import DiagStore
import Foundation

/// The log store inside a bundle (`system_logs.logarchive/`), checked before anything reads it:
/// a bundle comes from someone else's machine, so its chunks are SQLite files written by a
/// stranger (README, "Reading a bundle from someone else").
///
/// Every chunk's `sqlite_schema` must be exactly what this store writes (`ForeignChunk`); no
/// file SQLite would read beside a chunk (`-wal`, `-shm`, `-journal`) may be there, nor a
/// `Persist/Burst/` folder (whose chunks a store reads too); `Info.json` is bounded in size. A chunk of the first release is replaced, in a folder the cache owns, by
/// a fresh chunk its rows are copied into: never migrated in place, never with its own schema.
enum ForeignStore {
    /// The largest `Info.json` read from a bundle: 4 MiB lists about 30,000 chunks, far more than
    /// a bundle within the 4 GiB unpack bound holds. Below the 16 MiB bound of this machine's own
    /// stores (`StoreInfo.maximumFileSize`) because reading it costs memory: a bundle's Info.json
    /// of 15.6 MB listing 125,000 chunks took `diag show` to 185 MiB (Benchmarks/hostile-bundles.sh,
    /// case many-chunks-info); at 4 MiB it stays under 64 MiB.
    static let maximumInfoSize: Int64 = 4 << 20

    /// Checks the store under `root` (a bundle's top folder). `migrate` replaces older chunks
    /// (only in a folder the cache owns, before it is published); otherwise they are refused.
    /// `describe` names a file in errors (the bundle and the entry's path in it).
    static func admit(bundleRoot root: URL, migrate: Bool, describe: (String) -> String) throws {
        let store = root.appendingPathComponent(BundleLayout.logStore, isDirectory: true)
        var migrated = false
        for problem in try inspect(store: store, describe: describe) {
            switch problem {
            case .refused(let message):
                throw BundleError.badInput(message)
            case .older(let file, let version):
                guard migrate else {
                    throw BundleError.badInput("\(describe(file)): a chunk of store format version \(version), which is upgraded by copying it into the bundle cache; open the bundle's archive (.tar.gz, .tar.zst, .tar) rather than its unpacked folder")
                }
                try copyForward(store.appendingPathComponent(file).path, describe: describe(file))
                migrated = true
            }
        }
        if migrated {
            // Info.json is rewritten at the current format with the figures of the new chunks.
            do { try LogStore.open(at: store).close() } catch {
                throw BundleError.badInput("\(describe(StoreLayout.infoPath)): \(error)")
            }
        }
    }

    /// What `diag verify` reports of the store: one line per refused file.
    static func problems(bundleRoot root: URL) -> [String] {
        let store = root.appendingPathComponent(BundleLayout.logStore, isDirectory: true)
        do {
            return try inspect(store: store, describe: { "\(BundleLayout.logStore)/\($0)" }).compactMap {
                if case .refused(let message) = $0 { return message }
                return nil
            }
        } catch let error as BundleError {
            return [error.message]
        } catch {
            return ["\(BundleLayout.logStore): \(error)"]
        }
    }

    enum Finding {
        case refused(String)
        /// A chunk of an older schema version, by its path relative to the store.
        case older(String, version: Int)
    }

    private static func inspect(store: URL, describe: (String) -> String) throws -> [Finding] {
        var status = stat()
        guard lstat(store.path, &status) == 0 else { return [] }
        guard status.st_mode & S_IFMT == S_IFDIR else { return [.refused("\(describe("")): not a folder")] }
        var findings: [Finding] = []
        let info = StoreLayout.infoURL(store)
        if lstat(info.path, &status) == 0 {
            if status.st_size > maximumInfoSize {
                findings.append(.refused("\(describe(StoreLayout.infoPath)): \(status.st_size) bytes, over the bound of \(maximumInfoSize) bytes for a store's \(StoreLayout.infoFile)"))
            } else {
                // Read as opening the store reads it, so that what `verify` passes `show` opens.
                do { _ = try StoreInfo.load(from: info) } catch let error as StoreError {
                    findings.append(.refused("\(describe(StoreLayout.infoPath)): \(error.reason)"))
                }
            }
        }
        let persist = StoreLayout.chunkFolderURL(store)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: persist.path)) ?? []).sorted()
        for name in names {
            let relative = StoreLayout.chunkPath(file: name)
            if name == StoreLayout.burstFolder {
                // Where a running diagd writes a burst's chunks: the store reads the chunks there
                // too, and a bundle's are all under Persist/, each checked here (`diag collect`
                // copies every chunk there).
                findings.append(.refused("\(describe(relative)): a live store's folder of chunks being written; a bundle's chunks are all directly under \(StoreLayout.chunkFolder)/"))
                continue
            }
            if StoreLayout.isChunkSideFile(name) {
                findings.append(.refused("\(describe(relative)): SQLite would read this file with its chunk; a bundle's chunks are complete files with nothing beside them"))
                continue
            }
            guard StoreLayout.isChunkFile(name) else { continue }
            do {
                let shape = try ForeignChunk.inspect(path: persist.appendingPathComponent(name).path)
                if shape != .current { findings.append(.older(relative, version: shape.version)) }
            } catch let error as StoreError {
                findings.append(.refused("\(describe(relative)): \(error.reason)"))
            }
        }
        return findings
    }

    /// Replaces the older chunk at `path` by a copy of its rows at the current version, sealed and
    /// with its search index like every chunk of a bundle.
    private static func copyForward(_ path: String, describe: String) throws {
        let fresh = path + ".copying"
        unlink(fresh)
        do {
            try ForeignChunk.copyForward(from: path, to: fresh)
            let name = (path as NSString).lastPathComponent
            _ = try SnapshotChunkFinisher.finish(path: fresh, chunk: ChunkInfo(file: name, sequence: StoreLayout.sequence(ofChunkFile: name) ?? 0))
        } catch let error as StoreError {
            unlink(fresh)
            throw BundleError(error.kind == .io ? .failure : .badInput, "\(describe): \(error.reason)")
        }
        guard rename(fresh, path) == 0 else {
            throw BundleError.failure("cannot replace \(describe) by its upgraded copy: \(String(cString: strerror(errno)))")
        }
    }
}
