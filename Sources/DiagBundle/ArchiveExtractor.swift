import DiagModel
import Foundation

/// Unpacks a tar archive into a fresh folder, refusing anything that could reach outside it.
///
/// Only regular files and directories are accepted; paths must be relative with no `..`
/// component. Files are created with `O_EXCL | O_NOFOLLOW` in folders this code made, so no
/// entry can overwrite another or follow a link.
struct ArchiveExtractor {
    var limits: ExtractionLimits

    /// What an extraction produced: the archive's SHA-256 and each file's digest, by its
    /// normalised path relative to the destination.
    struct Result {
        var archiveSHA256: String
        var files: [String: BundleFileDigest]
    }

    /// Extracts `archivePath` into `destination` (an empty folder).
    ///
    /// Bounds are checked while each entry streams, so a bomb stops at its bound rather than
    /// after it was written: every file's size, the total (`ExtractionLimits.totalBound`, with
    /// the free space checked again as the unpack goes), and once the manifest has been read
    /// (`collect` writes it last; a hostile archive may put it anywhere) each later entry must
    /// be listed in it and no larger than it says.
    func extract(_ archivePath: String, into destination: URL) throws -> Result {
        let reader = try ArchiveReader(path: archivePath)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        let bound = limits.totalBound(destination: destination.path)
        var total: Int64 = 0
        var nextSpaceCheck = Self.spaceCheckInterval
        var entries = 0
        var files: [String: BundleFileDigest] = [:]
        var listed: StreamedManifest?
        while let header = try reader.nextEntry() {
            entries += 1
            guard entries <= limits.maximumEntryCount else {
                throw refusal(archivePath, header.rawPath, "more than \(limits.maximumEntryCount) entries")
            }
            let components = try checkedComponents(header, archivePath)
            let name = header.path ?? header.rawPath
            let relative = components.joined(separator: "/")
            let target = components.reduce(destination) { $0.appendingPathComponent($1) }
            if header.fileType == 0o040000 {
                try makeDirectories(components, under: destination, entry: name, archivePath)
                continue
            }
            var entryBound = (bytes: limits.maximumEntrySize, reason: "over the bound of \(limits.maximumEntrySize) bytes")
            if let listed {
                guard let size = listed.sizes[relative] else {
                    throw refusal(archivePath, name, "it is not listed in the manifest, which came before it")
                }
                entryBound = (size, "larger than the manifest says (\(size) bytes)")
            }
            let isManifest = listed == nil && StreamedManifest.isManifest(components)
            if isManifest, BundleManifest.maximumFileSize < entryBound.bytes {
                entryBound = (BundleManifest.maximumFileSize, "over the bound of \(BundleManifest.maximumFileSize) bytes for a manifest")
            }
            if let size = header.size, size > entryBound.bytes {
                throw refusal(archivePath, name, "its size \(size) bytes is \(entryBound.reason)")
            }
            try makeDirectories(Array(components.dropLast()), under: destination, entry: name, archivePath)
            let descriptor = open(target.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let reason = errno == EEXIST ? "it appears twice" : String(cString: strerror(errno))
                throw refusal(archivePath, name, "cannot create it: \(reason)")
            }
            defer { close(descriptor) }
            var hasher = SHA256()
            var entrySize: Int64 = 0
            while true {
                let count = try reader.readData(into: buffer, entry: name)
                if count == 0 { break }
                entrySize += Int64(count)
                total += Int64(count)
                guard entrySize <= entryBound.bytes else {
                    throw refusal(archivePath, name, "it unpacks to more bytes than that: \(entryBound.reason)")
                }
                guard total <= bound.bytes else {
                    throw refusal(archivePath, name, "the archive unpacks to more than \(bound.reason)")
                }
                if total >= nextSpaceCheck {
                    nextSpaceCheck += Self.spaceCheckInterval
                    if let free = ExtractionLimits.freeSpace(at: destination.path), free < limits.reserve {
                        throw BundleError.failure("stopped unpacking \(TerminalText.escaped(archivePath)): only \(free) bytes are left free for the bundle cache \(destination.deletingLastPathComponent().path)")
                    }
                }
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                hasher.update(chunk)
                try writeAll(descriptor, chunk, target.path)
            }
            files[relative] = BundleFileDigest(path: relative, size: entrySize, sha256: hasher.hexDigest())
            if isManifest { listed = StreamedManifest(file: target, top: components.dropLast()) }
        }
        return Result(archiveSHA256: try reader.finishDigest(), files: files)
    }

    /// How often the free space is checked again during an unpack.
    static let spaceCheckInterval: Int64 = 64 << 20

    /// The entry's path split into components, after refusing every kind of entry that is not
    /// a plain file or folder inside the destination.
    private func checkedComponents(_ header: ArchiveEntryHeader, _ archivePath: String) throws -> [String] {
        guard let path = header.path else {
            throw refusal(archivePath, header.rawPath, "its name is not valid UTF-8")
        }
        if let target = header.hardlinkTarget {
            throw refusal(archivePath, path, "it is a hard link (to '\(TerminalText.escaped(target))'); only files and folders are accepted")
        }
        switch header.fileType {
        case 0o100000, 0o040000: break
        case 0o120000:
            throw refusal(archivePath, path, "it is a symbolic link (to '\(TerminalText.escaped(header.symlinkTarget ?? ""))'); only files and folders are accepted")
        case 0o020000, 0o060000:
            throw refusal(archivePath, path, "it is a device; only files and folders are accepted")
        case 0o010000:
            throw refusal(archivePath, path, "it is a FIFO; only files and folders are accepted")
        case 0o140000:
            throw refusal(archivePath, path, "it is a socket; only files and folders are accepted")
        default:
            throw refusal(archivePath, path, "its type \(String(header.fileType, radix: 8)) is not a file or a folder")
        }
        if path.hasPrefix("/") {
            throw refusal(archivePath, path, "it is an absolute path; only paths relative to the bundle are accepted")
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if components.contains("..") {
            throw refusal(archivePath, path, "it has a '..' component; only paths inside the bundle are accepted")
        }
        let kept = components.filter { $0 != "." }
        guard !kept.isEmpty else { throw refusal(archivePath, path, "it names no file") }
        return kept
    }

    private func makeDirectories(_ components: [String], under root: URL, entry: String, _ archivePath: String) throws {
        var url = root
        for component in components {
            url.appendPathComponent(component)
            if mkdir(url.path, 0o755) == 0 || errno == EEXIST {
                var status = stat()
                guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                    throw refusal(archivePath, entry, "'\(component)' is both a file and a folder")
                }
                continue
            }
            throw refusal(archivePath, entry, "cannot create its folder: \(String(cString: strerror(errno)))")
        }
    }

    private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            guard written > 0 else { throw BundleError.failure("cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    private func refusal(_ archivePath: String, _ entry: String, _ reason: String) -> BundleError {
        .badInput("refusing \(TerminalText.escaped(archivePath)): entry '\(TerminalText.escaped(entry))': \(reason)")
    }
}
