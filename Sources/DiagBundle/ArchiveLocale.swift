import CArchive

/// The per-thread locale libarchive needs for UTF-8 pathnames.
///
/// libarchive 3.6.2 segfaults in `archive_write_header` on a non-ASCII pathname while the thread
/// runs in the C locale (issue 2233). `uselocale` is per thread, so every call that converts a
/// pathname first installs C.UTF-8 on the current thread; installing it again costs a TLS store.
enum ArchiveLocale {
    // Safe: created once and never freed or changed; a locale_t is only read by libc afterwards.
    nonisolated(unsafe) private static let utf8 = carchive_new_utf8_ctype_locale()

    static func useUTF8OnCurrentThread() {
        guard let utf8 else { return }
        uselocale(utf8)
    }
}

/// libarchive, opened on first use (CArchive.h says why `diag` does not link it).
enum ArchiveLibrary {
    /// Loads libarchive once per process; a clear error when the system lacks it.
    static func load() throws {
        var reason = [CChar](repeating: 0, count: 512)
        guard carchive_load(&reason, reason.count) == 0 else {
            let text = reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw BundleError.failure(text)
        }
    }
}
