import Foundation

extension LogStore {
    /// Makes `Info.json` agree with the files under `Persist/`: chunks it does not list are added,
    /// entries whose file is gone are dropped, older chunks are migrated, and the figures of
    /// chunks left open (by a crash or a running writer) are read from the files.
    func reconcile(chunkFiles: [String], forceSave: Bool) throws {
        var info = state.info
        var changed = forceSave
        // The files under Persist/ decide which chunks exist: an entry naming no file there (a
        // chunk expired by another process, or a hostile `../` path) is dropped, a duplicate
        // entry counts once, and the sequence comes from the file name.
        var entries: [String: ChunkInfo] = [:]
        for chunk in info.chunks where entries[chunk.file] == nil { entries[chunk.file] = chunk }
        var unlisted: Set<String> = []
        var chunks: [ChunkInfo] = []
        for file in chunkFiles {
            guard let sequence = ChunkInfo.sequence(fromFileName: file) else { continue }
            if var entry = entries[file] {
                entry.sequence = sequence
                chunks.append(entry)
            } else {
                chunks.append(ChunkInfo(file: file, sequence: sequence))
                unlisted.insert(file)
            }
        }
        chunks.sort { $0.sequence < $1.sequence }
        changed = changed || chunks != info.chunks
        info.chunks = chunks

        let olderStore = info.formatVersion < ChunkSchema.version
        for index in info.chunks.indices {
            let chunk = info.chunks[index]
            let path = chunkPath(chunk.file)
            let mustCheck = olderStore || unlisted.contains(chunk.file)
            if mustCheck {
                let version = try ChunkMigration.schemaVersion(ofChunkAt: path)
                if version > ChunkSchema.version {
                    throw StoreError(.unsupportedVersion, path: path,
                                     reason: "chunk schema version \(version) is newer than this tool's (\(ChunkSchema.version))")
                }
                // Version 0 is a file with no table yet: a writer creating it now (readers skip it).
                if version < ChunkSchema.version && !(version == 0 && options.readOnly) {
                    guard !options.readOnly else {
                        throw StoreError(.readOnly, path: path,
                                         reason: "chunk is at schema version \(version) and must be upgraded to \(ChunkSchema.version); open the store for writing once to migrate it")
                    }
                    try ChunkMigration.migrate(chunkAt: path, batchSize: options.migrationBatchSize)
                }
            }
            if !options.readOnly && (mustCheck || !chunk.sealed) {
                info.chunks[index] = try Self.measure(path: path, chunk: chunk)
                changed = true
            }
        }
        if olderStore {
            info.formatVersion = ChunkSchema.version
            changed = true
        }
        state.info = info
        let listed = info.chunks.filter { !unlisted.contains($0.file) }
        let newestListed = listed.map(\.sequence).max() ?? .min
        state.finalRanges = Set(listed.filter { !$0.sealed && $0.sequence < newestListed }.map(\.file))
        if changed && !options.readOnly { try saveInfoLocked() }
    }

    /// Removes what a seal of a burst's chunk (`ChunkSealer.sealCopy`) left when it was cut
    /// short: a copy not renamed into place yet (`<file>.sealing` under `Persist/`, and the files
    /// beside it), and a burst's file whose copy is in place (the seal stopped before removing
    /// it; readers already take the copy). Called by the writer lock's holder only, the one
    /// process that seals. A file that cannot be removed stays (the next writer tries again):
    /// nothing is lost by it, and readers never take it.
    func removeSealLeftovers() {
        let manager = FileManager.default
        // `<chunk>.sealing` and the files SQLite keeps beside it, by the chunk's name.
        let copies = Set(((try? manager.contentsOfDirectory(atPath: persistURL.path)) ?? []).compactMap { name -> String? in
            guard let range = name.range(of: StoreLayout.sealingSuffix),
                  ChunkInfo.sequence(fromFileName: String(name[..<range.lowerBound])) != nil else { return nil }
            return String(name[..<range.lowerBound])
        })
        for chunk in copies { try? ChunkSealer.removeChunkFiles(sealedChunkPath(chunk) + StoreLayout.sealingSuffix) }
        for name in (try? manager.contentsOfDirectory(atPath: StoreLayout.burstFolderURL(url).path)) ?? []
        where ChunkInfo.sequence(fromFileName: name) != nil && access(sealedChunkPath(name), F_OK) == 0 {
            try? ChunkSealer.removeChunkFiles(burstChunkPath(name))
        }
    }

    static func measure(path: String, chunk: ChunkInfo) throws -> ChunkInfo {
        do {
            let database = try Database(path: path, options: .init(create: false))
            return try ChunkSealer.measure(database, chunk: chunk)
        } catch {
            throw StoreError.chunk(path, error)
        }
    }
}
