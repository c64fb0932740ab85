import CArchive
import DiagStore
import Foundation

/// How a bundle's tar stream is compressed.
public enum BundleCompression: String, Sendable, CaseIterable {
    case gzip
    case zstd
    case none

    /// `.tar.gz`, `.tar.zst` or `.tar`.
    public var fileExtension: String {
        switch self {
        case .gzip: ".tar.gz"
        case .zstd: ".tar.zst"
        case .none: ".tar"
        }
    }
}

/// What the manifest records about one file: its path inside the bundle, size and SHA-256.
public struct BundleFileDigest: Sendable, Hashable {
    public var path: String
    public var size: Int64
    public var sha256: String

    public init(path: String, size: Int64, sha256: String) {
        self.path = path
        self.size = size
        self.sha256 = sha256
    }
}

/// Writes a pax tar stream through libarchive, one entry at a time, hashing what it writes.
///
/// Memory stays flat: file contents go through a few fixed buffers. Keep a writer on one thread
/// (see `ArchiveLocale`).
final class ArchiveWriter {
    private let archive: OpaquePointer
    private let fileDescriptor: Int32
    private let modificationTime: Int64
    /// The archive's path, for errors.
    private let path: String
    private var closed = false
    /// Bytes of entry contents written so far, for progress.
    private(set) var bytesWritten: Int64 = 0

    /// Opens `path` for writing; the file must not exist yet.
    init(path: String, compression: BundleCompression, modificationTime: Int64) throws {
        try ArchiveLibrary.load()
        ArchiveLocale.useUTF8OnCurrentThread()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BundleError.failure("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        guard let archive = archive_write_new() else {
            close(descriptor)
            throw BundleError.failure("libarchive could not allocate a writer")
        }
        self.archive = archive
        self.fileDescriptor = descriptor
        self.path = path
        self.modificationTime = modificationTime
        // From here a throw runs deinit, which frees the archive and closes the file.
        try check(archive_write_set_format_pax(archive), "set the pax format")
        switch compression {
        case .gzip:
            try check(archive_write_add_filter_gzip(archive), "add the gzip filter")
        case .zstd:
            try check(archive_write_add_filter_zstd(archive), "add the zstd filter")
            // What `zstd -T0` does: level 3 (the zstd command's default, and libarchive's), one
            // worker per core (libarchive 3.6 sets ZSTD_c_nbWorkers from "threads").
            try check(archive_write_set_filter_option(archive, "zstd", "compression-level", "3"), "set the zstd level")
            let threads = String(max(1, ProcessInfo.processInfo.activeProcessorCount))
            try check(archive_write_set_filter_option(archive, "zstd", "threads", threads), "set zstd threads")
        case .none:
            try check(archive_write_add_filter_none(archive), "choose no compression")
        }
        // Written 64 KiB at a time rather than tar's 10 KiB: a tenth of the system calls. The
        // output is a regular file, so libarchive pads no block (archive_write_open_fd).
        try check(archive_write_set_bytes_per_block(archive, 64 * 1024), "set the block size")
        try check(archive_write_open_fd(archive, descriptor), "open \(path)")
    }

    deinit {
        if !closed { archive_write_free(archive) }
        close(fileDescriptor)
    }

    func addDirectory(_ path: String) throws {
        try writeHeader(path: path.hasSuffix("/") ? path : path + "/", fileType: 0o040000, permissions: 0o755, size: 0)
    }

    /// Adds bytes held in memory as a regular file.
    @discardableResult
    func addFile(_ path: String, contents: [UInt8]) throws -> BundleFileDigest {
        try writeHeader(path: path, fileType: 0o100000, permissions: 0o644, size: Int64(contents.count))
        var hasher = SHA256()
        try contents.withUnsafeBytes { bytes in
            hasher.update(bytes)
            try writeData(bytes, entry: path)
        }
        return BundleFileDigest(path: path, size: Int64(contents.count), sha256: hasher.hexDigest())
    }

    /// Streams a file from disk into the archive. The file must not change while it is read.
    @discardableResult
    func addFile(_ path: String, from source: URL) throws -> BundleFileDigest {
        let descriptor = open(source.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw BundleError.failure("cannot read \(source.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw BundleError.failure("cannot stat \(source.path): \(String(cString: strerror(errno)))")
        }
        return try addFile(path, from: descriptor, size: Int64(status.st_size), sourceName: source.path)
    }

    /// Streams the first `size` bytes of an open file into the archive as a regular file, read
    /// and hashed on another thread meanwhile (`HashingReader`). `adjust` may rewrite each buffer
    /// read (given the offset of its first byte in the file) before it is hashed and written.
    /// The file must not change meanwhile.
    @discardableResult
    func addFile(_ path: String, from descriptor: Int32, size: Int64, sourceName: String,
                 adjust: @escaping @Sendable (UnsafeMutableRawBufferPointer, Int64) -> Void = { _, _ in }) throws -> BundleFileDigest {
        try writeHeader(path: path, fileType: 0o100000, permissions: 0o644, size: size)
        let digest = try HashingReader.read(descriptor, size: size, sourceName: sourceName, adjust: adjust) { bytes in
            try writeData(bytes, entry: path)
        }
        startWriteback()
        return BundleFileDigest(path: path, size: size, sha256: digest)
    }

    /// The same for the first `size` bytes of a database file read through its connection's own
    /// file handle (`Database.mainFile()`), which must not change meanwhile.
    @discardableResult
    func addFile(_ path: String, from file: DatabaseFile, size: Int64,
                 adjust: @escaping @Sendable (UnsafeMutableRawBufferPointer, Int64) -> Void = { _, _ in }) throws -> BundleFileDigest {
        try writeHeader(path: path, fileType: 0o100000, permissions: 0o644, size: size)
        let digest = try HashingReader.read(size: size, adjust: adjust, consume: { bytes in try writeData(bytes, entry: path) }) { bytes, offset in
            do {
                try file.read(into: bytes, at: offset)
            } catch {
                throw BundleError.failure("cannot read \(file.path) while it was archived: \(error)")
            }
        }
        startWriteback()
        return BundleFileDigest(path: path, size: size, sha256: digest)
    }

    /// Starts writing what the archive holds so far to the disk, without waiting: the final
    /// `fsync` then has little left to wait for.
    private func startWriteback() {
        _ = carchive_start_writeback(fileDescriptor)
    }

    /// Writes the end of the archive and flushes the compressor; the file is complete afterwards.
    func finish() throws {
        guard !closed else { return }
        closed = true
        let status = archive_write_close(archive)
        let message = errorMessage()
        archive_write_free(archive)
        guard status == ARCHIVE_OK else { throw BundleError.failure("cannot finish the archive: \(message)") }
        guard fsync(fileDescriptor) == 0 else {
            throw BundleError.failure("cannot flush the archive: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes one entry's header; regular files then take exactly `size` bytes of `writeData`.
    /// Links and special files exist only so tests can build hostile archives.
    func writeHeader(
        path: String, fileType: UInt32, permissions: UInt32, size: Int64,
        symlinkTarget: String? = nil, hardlinkTarget: String? = nil
    ) throws {
        ArchiveLocale.useUTF8OnCurrentThread()
        guard let entry = archive_entry_new() else { throw BundleError.failure("libarchive could not allocate an entry") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, path)
        archive_entry_set_filetype(entry, fileType)
        archive_entry_set_perm(entry, mode_t(permissions))
        archive_entry_set_size(entry, size)
        archive_entry_set_mtime(entry, time_t(modificationTime), 0)
        if let symlinkTarget { archive_entry_set_symlink_utf8(entry, symlinkTarget) }
        if let hardlinkTarget { archive_entry_set_hardlink_utf8(entry, hardlinkTarget) }
        try check(archive_write_header(archive, entry), "write the header of \(path)")
    }

    func writeData(_ bytes: UnsafeRawBufferPointer, entry: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = archive_write_data(archive, bytes.baseAddress! + offset, bytes.count - offset)
            guard written > 0 else { throw BundleError.failure("cannot write \(entry) into \(path): \(errorMessage())") }
            offset += written
        }
        bytesWritten += Int64(bytes.count)
    }

    private func check(_ status: Int32, _ action: String) throws {
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN else {
            throw BundleError.failure("libarchive could not \(action): \(errorMessage())")
        }
    }

    /// libarchive's message with the system's word for its errno: a full disk is only "Write
    /// error" in libarchive's words, "Write error (No space left on device)" here.
    private func errorMessage() -> String {
        let code = archive_errno(archive)
        let cause = code > 0 ? String(cString: strerror(code)) : nil
        guard let text = archive_error_string(archive).map({ String(cString: $0) }) else { return cause ?? "unknown error" }
        guard let cause, !text.contains(cause) else { return text }
        return "\(text) (\(cause))"
    }
}

@available(*, unavailable)
extension ArchiveWriter: Sendable {}
