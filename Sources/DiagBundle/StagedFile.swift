import Foundation

/// Writes a file of the staging folder: archived, then removed with the folder, so it is never
/// synced (the bundle is, once complete). `Data.write(to:)` syncs every file it writes.
enum StagedFile {
    static func write(_ data: Data, to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BundleError.failure("cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                guard written > 0 else {
                    if written < 0, errno == EINTR { continue }
                    throw BundleError.failure("cannot write \(url.path): \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }
}
