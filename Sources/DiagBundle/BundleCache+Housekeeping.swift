import Foundation

/// What the cache holds, and the removal of what interrupted runs left behind.
extension BundleCache {
    /// The two kinds of temporary folders: an archive being unpacked into the cache, and one
    /// unpacked afresh for `diag verify`.
    public enum TemporaryKind: String, Sendable {
        case unpack, verify
    }

    /// `.unpack-<pid>-` or `.verify-<pid>-`: the owner's process id is in the name, so that a
    /// later run can tell a folder in use from one whose process was killed.
    static func temporaryPrefix(_ kind: TemporaryKind, pid: Int32 = getpid()) -> String {
        ".\(kind.rawValue)-\(pid)-"
    }

    /// A temporary folder, and whether the process that made it is gone.
    public struct TemporaryFolder: Sendable {
        public var name: String
        public var kind: TemporaryKind
        /// Nil for a folder named before the process id was part of the name.
        public var ownerPID: Int32?
        public var isAbandoned: Bool
    }

    /// The temporary folders in the cache now.
    public func temporaryFolders() -> [TemporaryFolder] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { name in
            guard let kind = [TemporaryKind.unpack, .verify].first(where: { name.hasPrefix(".\($0.rawValue)-") }) else { return nil }
            let rest = name.dropFirst(kind.rawValue.count + 2)
            let pid = rest.split(separator: "-", maxSplits: 1).first.flatMap { Int32($0) }
            let abandoned: Bool
            if let pid, rest.contains("-") {
                abandoned = kill(pid, 0) != 0 && errno == ESRCH
            } else {
                // An older name without a process id: abandoned once an hour old.
                let modified = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.modificationDate]) as? Date
                abandoned = modified.map { $0.timeIntervalSinceNow < -3600 } ?? true
            }
            return TemporaryFolder(name: name, kind: kind, ownerPID: rest.contains("-") ? pid : nil, isAbandoned: abandoned)
        }
    }

    /// Removes the temporary folders whose process is gone (killed during an unpack); returns
    /// how many. Runs before every unpack and verify.
    @discardableResult
    public func sweepAbandoned() -> Int {
        var removed = 0
        for folder in temporaryFolders() where folder.isAbandoned {
            if (try? FileManager.default.removeItem(at: directory.appendingPathComponent(folder.name))) != nil { removed += 1 }
        }
        return removed
    }

    /// One unpacked bundle in the cache.
    public struct Entry: Sendable {
        /// The archive's SHA-256, the folder's name.
        public var sha256: String
        /// The bundle's top folder (`diagnose_…`), when there is one.
        public var bundleName: String?
        public var byteCount: Int64
        public var modified: Date?
    }

    /// The unpacked bundles, most recently unpacked first.
    public func entries() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.count == 64 && $0.allSatisfy(\.isHexDigit) }.map { name in
            let folder = directory.appendingPathComponent(name)
            let top = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.first { !$0.hasPrefix(".") }
            let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path)[.modificationDate]) as? Date
            return Entry(sha256: name, bundleName: top, byteCount: Self.size(of: folder), modified: modified)
        }.sorted { ($0.modified ?? .distantPast) > ($1.modified ?? .distantPast) }
    }

    /// Removes every unpacked bundle, the index, and abandoned temporary folders; folders of
    /// unpacks still running are left to them. Returns the bundles removed and the bytes freed.
    public func clear() throws -> (bundles: Int, bytes: Int64) {
        var bundles = 0
        var bytes: Int64 = 0
        for entry in entries() {
            try remove(directory.appendingPathComponent(entry.sha256))
            bundles += 1
            bytes += entry.byteCount
        }
        let index = directory.appendingPathComponent("index")
        if FileManager.default.fileExists(atPath: index.path) { try remove(index) }
        for folder in temporaryFolders() where folder.isAbandoned {
            let url = directory.appendingPathComponent(folder.name)
            bytes += Self.size(of: url)
            try remove(url)
        }
        return (bundles, bytes)
    }

    private func remove(_ url: URL) throws {
        do { try FileManager.default.removeItem(at: url) } catch {
            throw BundleError.failure("cannot remove \(url.path): \(error.localizedDescription)")
        }
    }

    /// Bytes of the files under `folder`.
    static func size(of folder: URL) -> Int64 {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else { return 0 }
        var total: Int64 = 0
        for case let url as URL in enumerator {
            guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true else { continue }
            total += Int64(values.fileSize ?? 0)
        }
        return total
    }
}
