import DiagModel
import Foundation

/// Bounds on what an archive may unpack to, against decompression bombs.
public struct ExtractionLimits: Sendable {
    /// The largest single file accepted.
    public var maximumEntrySize: Int64
    /// The most bytes all files together may unpack to.
    public var maximumTotalSize: Int64
    public var maximumEntryCount: Int

    public init(maximumEntrySize: Int64 = 16 << 30, maximumTotalSize: Int64 = 64 << 30, maximumEntryCount: Int = 200_000) {
        self.maximumEntrySize = maximumEntrySize
        self.maximumTotalSize = maximumTotalSize
        self.maximumEntryCount = maximumEntryCount
    }
}

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
    func extract(_ archivePath: String, into destination: URL) throws -> Result {
        let reader = try ArchiveReader(path: archivePath)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        var entries = 0
        var files: [String: BundleFileDigest] = [:]
        while let header = try reader.nextEntry() {
            entries += 1
            guard entries <= limits.maximumEntryCount else {
                throw refusal(archivePath, header.rawPath, "more than \(limits.maximumEntryCount) entries")
            }
            let components = try checkedComponents(header, archivePath)
            let name = header.path ?? header.rawPath
            let target = components.reduce(destination) { $0.appendingPathComponent($1) }
            if header.fileType == 0o040000 {
                try makeDirectories(components, under: destination, entry: name, archivePath)
                continue
            }
            if let size = header.size, size > limits.maximumEntrySize {
                throw refusal(archivePath, name, "its size \(size) bytes is over the bound of \(limits.maximumEntrySize) bytes")
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
                guard entrySize <= limits.maximumEntrySize else {
                    throw refusal(archivePath, name, "it unpacks to more than the bound of \(limits.maximumEntrySize) bytes")
                }
                guard total <= limits.maximumTotalSize else {
                    throw refusal(archivePath, name, "the archive unpacks to more than the bound of \(limits.maximumTotalSize) bytes in all")
                }
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                hasher.update(chunk)
                try writeAll(descriptor, chunk, target.path)
            }
            let relative = components.joined(separator: "/")
            files[relative] = BundleFileDigest(path: relative, size: entrySize, sha256: hasher.hexDigest())
        }
        return Result(archiveSHA256: try reader.finishDigest(), files: files)
    }

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
