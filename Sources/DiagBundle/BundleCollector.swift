import DiagModel
import DiagOutput
import DiagStore
import Foundation

/// Writes a bundle (DESIGN.md, "Bundle layout"): stages the snapshots and summaries in a hidden
/// folder beside the output, then streams them through libarchive into `<bundle>.partial`,
/// which is renamed only once complete.
///
/// Runs on the calling thread from start to end: libarchive's writer must stay on one thread.
public struct BundleCollector {
    public var request: BundleRequest
    public var host = HostInfo.current

    public init(request: BundleRequest) {
        self.request = request
    }

    public func run(progress: ((BundleProgress) -> Void)? = nil) throws -> BundleResult {
        let redactor = request.redact ? Redactor.forLocalMachine() : nil
        let hostName = redactor.map { $0.redact(host.hostName) } ?? host.hostName
        let (outputPath, top) = request.outputPath(host: hostName.replacingOccurrences(of: "<", with: "").replacingOccurrences(of: ">", with: ""))
        guard !FileManager.default.fileExists(atPath: outputPath) else {
            throw BundleError.badInput("\(outputPath) already exists; choose another --output")
        }
        let outputFolder = URL(fileURLWithPath: outputPath).deletingLastPathComponent()
        let staging = try makeStagingFolder(in: outputFolder, name: top)
        defer { try? FileManager.default.removeItem(at: staging) }
        let root = staging.appendingPathComponent(top, isDirectory: true)
        var manifest = BundleManifest(kind: request.kind.rawValue, toolVersion: request.toolVersion, host: hostName,
                                      kernel: host.kernel, created: request.created)
        manifest.windowStart = request.window.start
        manifest.windowEnd = request.window.end
        manifest.predicate = request.predicate
        manifest.title = request.title
        manifest.redacted = redactor != nil
        manifest.identifiers = request.identifiers
        manifest.leftOut = request.leftOut
        var zone = DisplayZone.fromEnvironment()
        manifest.timeZone = zone.name
        manifest.timeZoneOffsetSeconds = zone.offsetSeconds(at: request.created)

        progress?(BundleProgress(phase: "snapshotting the log store", archivedBytes: 0))
        let storeFolder = root.appendingPathComponent(BundleLayout.logStore, isDirectory: true)
        // The chunks are pinned, and those that need it copied, on a thread of their own, and
        // archived as each is ready. A redacted selection stays on this thread, which owns the
        // redactor.
        let chunks = SnapshotFeed()
        if let redactor {
            chunks.run { ready in
                try StoreSelection(request: request, redactor: redactor).write(to: storeFolder, chunkReady: ready)
            }
        } else {
            let request = request
            chunks.start { ready in
                try StoreSelection(request: request, redactor: nil).write(to: storeFolder, chunkReady: ready)
            }
        }
        let partial = outputPath + ".partial"
        do {
            for (path, name) in zip(request.storeFiles, StoreFileSnapshot.names(for: request.storeFiles)) {
                let taken = try StoreFileSnapshot.take(path: path, name: name, staging: root)
                manifest.stores.append(BundleManifest.StoreFile(
                    name: name, sourcePath: path, snapshot: taken.files[0].bundlePath,
                    asFound: taken.files.dropFirst().map(\.bundlePath)))
            }
            try writeTexts(root: root)
            manifest = try archive(root: root, top: top, chunks: chunks, to: partial, manifest: manifest,
                                   hostName: hostName, progress: progress)
        } catch {
            chunks.cancelAndWait()
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
        guard rename(partial, outputPath) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: partial)
            throw BundleError.failure("cannot move the bundle to \(outputPath): \(reason)")
        }
        var mapPath: String?
        if let redactor {
            mapPath = outputPath + ".redaction-map.json"
            try write(try redactor.mapJSON(), to: URL(fileURLWithPath: mapPath!), permissions: 0o600)
        }
        return BundleResult(path: outputPath, manifest: manifest, redactionMapPath: mapPath)
    }

    /// Streams the log store's chunks into the archive, then the other staged files while the
    /// summaries are written on another thread, the summaries once ready, the manifest last;
    /// returns the manifest with its record counts and digests.
    private func archive(root: URL, top: String, chunks: SnapshotFeed, to path: String, manifest: BundleManifest,
                         hostName: String, progress: ((BundleProgress) -> Void)?) throws -> BundleManifest {
        let writer = try ArchiveWriter(path: path, compression: request.compression,
                                       modificationTime: request.created / Timestamp.nanosecondsPerSecond)
        try writer.addDirectory(top)
        var digests: [BundleFileDigest] = []
        var archived: Set<String> = []
        func add(_ relative: String) throws {
            archived.insert(relative)
            if relative.hasSuffix("/") {
                try writer.addDirectory("\(top)/\(relative)")
                return
            }
            progress?(BundleProgress(phase: "archiving \(relative)", archivedBytes: writer.bytesWritten))
            var digest = try writer.addFile("\(top)/\(relative)", from: root.appendingPathComponent(relative))
            digest.path = relative
            digests.append(digest)
        }
        // Sealed chunks go from the live store's files straight into the archive, hashed on the
        // way; should one not be quiescent when its turn comes, it is copied first after all.
        func addSealed(_ chunk: SealedChunk) throws {
            let relative = "\(BundleLayout.logStore)/\(StoreLayout.chunkPath(file: chunk.file))"
            progress?(BundleProgress(phase: "archiving \(relative)", archivedBytes: writer.bytesWritten))
            if var digest = try chunk.archive(into: writer, entry: "\(top)/\(relative)") {
                archived.insert(relative)
                digest.path = relative
                digests.append(digest)
                return
            }
            do {
                try chunk.copy(intoStore: root.appendingPathComponent(BundleLayout.logStore, isDirectory: true))
            } catch let error as SnapshotError {
                throw BundleError(error)
            }
            try add(relative)
        }
        // The summaries read the snapshot while the archive takes it in: two cores at work.
        let summaries = SummaryJob(root: root, hostName: hostName, manifest: manifest, notes: request.notes, baseline: request.baseline)
        let statistics: BundleStatistics
        // The log store's Info.json holds record counts the summaries take (`SummaryJob`).
        let summaryFiles = ["\(BundleLayout.logStore)/\(StoreLayout.infoPath)", "\(BundleLayout.summaries)/", BundleLayout.stats,
                            BundleLayout.errors, BundleLayout.report] + (request.leftOut == nil ? [] : [BundleLayout.leftOut])
        // The summaries read the whole snapshot: they start once the last chunk is copied (sealed
        // chunks are read where they are), while the chunks still queued are archived.
        var summariesStarted = false
        func startSummariesOnceCopied() {
            guard !summariesStarted, chunks.copyFinished else { return }
            summariesStarted = true
            summaries.start(chunks.summaryInputs, storeInfo: chunks.storeInfoToComplete)
        }
        do {
            try add("\(BundleLayout.logStore)/")
            try add("\(BundleLayout.logStore)/\(StoreLayout.chunkFolder)/")
            while let chunk = try chunks.next() {
                startSummariesOnceCopied()
                switch chunk {
                case .staged(let file, _): try add("\(BundleLayout.logStore)/\(StoreLayout.chunkPath(file: file))")
                case .sealed(let sealed): try addSealed(sealed)
                }
            }
            startSummariesOnceCopied()
            // The writer lock of the staged store (a feedback bundle's selection is written
            // through LogStore) is a process's lock, not content: the manifest lists only what
            // the reader needs.
            let staged = try stagedFiles(root).filter { $0 != "\(BundleLayout.logStore)/\(StoreLayout.writerLock)" }
            for relative in staged where !archived.contains(relative) && !summaryFiles.contains(relative) {
                try add(relative)
            }
            progress?(BundleProgress(phase: "summarising", archivedBytes: writer.bytesWritten))
        } catch {
            if summariesStarted { _ = try? summaries.wait() }
            throw error
        }
        statistics = try summaries.wait()
        for relative in summaryFiles { try add(relative) }
        var complete = manifest
        complete.recordCounts = statistics.recordCounts
        complete.files = digests
        try writer.addFile("\(top)/\(BundleManifest.fileName)", contents: Array(try complete.jsonData()))
        try writer.finish()
        progress?(BundleProgress(phase: "done", archivedBytes: writer.bytesWritten))
        return complete
    }

    /// Every staged path relative to `root`, folders with a trailing `/`, in a stable order:
    /// the log store first (its Info.json before its chunks), then the rest by name.
    private func stagedFiles(_ root: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey]) else {
            throw BundleError.failure("cannot list \(root.path)")
        }
        var paths: [String] = []
        let prefix = root.standardizedFileURL.path + "/"
        for case let url as URL in enumerator {
            let relative = String(url.standardizedFileURL.path.dropFirst(prefix.count))
            let isDirectory = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) ?? false
            paths.append(isDirectory ? relative + "/" : relative)
        }
        func rank(_ path: String) -> Int {
            if path.hasPrefix(BundleLayout.logStore) { return path.hasSuffix(".sqlite") ? 1 : 0 }
            return 2
        }
        return paths.sorted { rank($0) != rank($1) ? rank($0) < rank($1) : $0 < $1 }
    }

    private func writeTexts(root: URL) throws {
        var predicateFiles = request.predicateFiles
        if let predicate = request.predicate, !predicateFiles.contains(where: { $0.contents.trimmingCharacters(in: .whitespacesAndNewlines) == predicate }) {
            predicateFiles.insert(BundlePredicateFile(name: "query.predicate", contents: predicate + "\n"), at: 0)
        }
        if !predicateFiles.isEmpty {
            let folder = root.appendingPathComponent(BundleLayout.predicates, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, file) in zip(StoreFileSnapshot.names(for: predicateFiles.map(\.name)), predicateFiles) {
                let fileName = URL(fileURLWithPath: file.name).pathExtension.isEmpty ? name : "\(name).\(URL(fileURLWithPath: file.name).pathExtension)"
                try write(Data(file.contents.utf8), to: folder.appendingPathComponent(fileName))
            }
        }
        if let leftOut = request.leftOut {
            try write(Data(leftOut.summaryText.utf8), to: root.appendingPathComponent(BundleLayout.leftOut))
        }
        if let notes = request.notes {
            try write(Data(notes.utf8), to: root.appendingPathComponent(BundleLayout.notes))
        }
    }

    private func makeStagingFolder(in folder: URL, name: String) throws -> URL {
        try UniqueFolder.make(in: folder, prefix: ".\(name).staging-")
    }

    private func write(_ data: Data, to url: URL, permissions: Int = 0o644) throws {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: url.path)
        } catch {
            throw BundleError.failure("cannot write \(url.path): \(error.localizedDescription)")
        }
    }
}
