import Foundation

/// A new folder with a unique name, made by `mkdtemp(3)` so that no other process can have it.
enum UniqueFolder {
    /// `mkdtemp` replaces the six trailing characters of its template.
    private static let templateSuffix = String(repeating: "X", count: 6)

    /// Makes `<folder>/<prefix><6 random characters>` and returns it.
    static func make(in folder: URL, prefix: String) throws -> URL {
        var template = Array(folder.appendingPathComponent(prefix + templateSuffix).path.utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BundleError.failure("cannot create a folder in \(folder.path): \(String(cString: strerror(errno)))")
        }
        return URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }
}
