import CArchive
import DiagModel
import Foundation

/// One entry's header as the archive states it; nothing here has been checked yet.
struct ArchiveEntryHeader {
    /// The pathname as UTF-8, or nil when it cannot be converted.
    var path: String?
    /// The raw pathname bytes, for messages when `path` is nil.
    var rawPath: String
    /// The `S_IFMT` bits: 0o100000 regular, 0o040000 directory, 0o120000 symlink, …
    var fileType: UInt32
    var size: Int64?
    var hardlinkTarget: String?
    var symlinkTarget: String?
}

/// Reads a tar stream (plain, gzip or zstd) through libarchive and hashes every byte of the file
/// as it goes, so a bundle is read and fingerprinted in one pass.
///
/// Only the tar family and these three compressions are enabled: libarchive's other filters may
/// run external programs. Keep a reader on one thread (see `ArchiveLocale`).
final class ArchiveReader {
    private let archive: OpaquePointer
    private let source: HashingFileSource
    let path: String

    init(path: String) throws {
        try ArchiveLibrary.load()
        ArchiveLocale.useUTF8OnCurrentThread()
        self.path = path
        source = try HashingFileSource(path: path)
        guard let archive = archive_read_new() else { throw BundleError.failure("libarchive could not allocate a reader") }
        self.archive = archive
        archive_read_support_format_tar(archive)
        archive_read_support_filter_gzip(archive)
        archive_read_support_filter_zstd(archive)
        archive_read_support_filter_none(archive)
        let status = archive_read_open(archive, Unmanaged.passUnretained(source).toOpaque(), nil, hashingRead, nil)
        guard status == ARCHIVE_OK else {
            // deinit frees the archive: every stored property is set, so it runs for this failed init.
            throw BundleError.badInput("\(path) is not a readable tar archive (.tar, .tar.gz, .tar.zst), or is truncated or corrupt before its first entry: \(errorMessage())")
        }
    }

    deinit {
        archive_read_free(archive)
    }

    /// The next entry's header, or nil at the end of the archive.
    func nextEntry() throws -> ArchiveEntryHeader? {
        ArchiveLocale.useUTF8OnCurrentThread()
        var entry: OpaquePointer?
        let status = archive_read_next_header(archive, &entry)
        if status == ARCHIVE_EOF { return nil }
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
            throw BundleError.badInput("\(path) is truncated or corrupt after \(entriesRead) entries: \(errorMessage())")
        }
        entriesRead += 1
        let raw = archive_entry_pathname(entry).map { String(decoding: Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return ArchiveEntryHeader(
            path: archive_entry_pathname_utf8(entry).map { String(cString: $0) },
            rawPath: raw ?? "(no name)",
            fileType: UInt32(archive_entry_filetype(entry)),
            size: archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil,
            hardlinkTarget: archive_entry_hardlink(entry).map { String(cString: $0) },
            symlinkTarget: archive_entry_symlink(entry).map { String(cString: $0) }
        )
    }

    private var entriesRead = 0

    /// Reads the current entry's contents into `buffer`; 0 at the end of the entry.
    func readData(into buffer: UnsafeMutableRawBufferPointer, entry: String) throws -> Int {
        let count = archive_read_data(archive, buffer.baseAddress, buffer.count)
        guard count >= 0 else {
            throw BundleError.badInput("\(TerminalText.escaped(path)): entry '\(TerminalText.escaped(entry))' is truncated or corrupt: \(errorMessage())")
        }
        return count
    }

    /// Reads what is left of the file after the archive's end, so the digest covers every byte.
    func finishDigest() throws -> String {
        try source.drain()
        return source.hasher.hexDigest()
    }

    private func errorMessage() -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "error \(archive_errno(archive))"
    }
}

@available(*, unavailable)
extension ArchiveReader: Sendable {}

/// The file under an `ArchiveReader`: hands libarchive blocks and hashes them on the way.
private final class HashingFileSource {
    let descriptor: Int32
    let path: String
    var hasher = SHA256()
    /// Owned here (not an array) because libarchive keeps the address until the next read.
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    var failure: String?

    init(path: String) throws {
        self.path = path
        // A local until open: were every stored property set, this throw would run deinit, and
        // the buffer would be freed twice.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            buffer.deallocate()
            throw BundleError.failure("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    /// Fills the buffer; returns its address and the byte count (0 at the end, -1 on error).
    func next() -> (UnsafeRawPointer?, Int) {
        let count = read(descriptor, buffer.baseAddress, buffer.count)
        guard count >= 0 else {
            failure = String(cString: strerror(errno))
            return (nil, -1)
        }
        hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        return (UnsafeRawPointer(buffer.baseAddress), count)
    }

    func drain() throws {
        while true {
            let (_, count) = next()
            if count == 0 { return }
            if count < 0 { throw BundleError.failure("cannot read \(path): \(failure ?? "I/O error")") }
        }
    }
}

private func hashingRead(
    _ archive: OpaquePointer?, _ client: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UnsafeRawPointer?>?
) -> la_ssize_t {
    let source = Unmanaged<HashingFileSource>.fromOpaque(client!).takeUnretainedValue()
    let (address, count) = source.next()
    buffer?.pointee = address
    return la_ssize_t(count)
}
