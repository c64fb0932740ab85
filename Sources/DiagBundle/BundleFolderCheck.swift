import DiagModel
import Foundation

/// An unpacked bundle folder is held to what an archive may unpack to: regular files and folders
/// only. `tar` recreates FIFOs, devices and links, and opening a FIFO blocks until something
/// writes it, so `diag show` would hang on one instead of refusing it.
enum BundleFolderCheck {
    /// The most entries walked: as many as an archive may hold.
    static let maximumEntries = ExtractionLimits().maximumEntryCount

    /// Throws `BundleError.badInput` naming the first entry under `folder` that is not a regular
    /// file or a folder (links are not followed).
    static func check(_ folder: URL) throws {
        var pending = [folder.path]
        var seen = 0
        while let directory = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                throw BundleError.badInput("cannot list \(TerminalText.escaped(directory)): \(String(cString: strerror(errno)))")
            }
            for name in names {
                seen += 1
                guard seen <= maximumEntries else {
                    throw BundleError.badInput("\(TerminalText.escaped(folder.path)): more than \(maximumEntries) entries, more than a bundle holds")
                }
                let path = directory + "/" + name
                var status = stat()
                guard lstat(path, &status) == 0 else {
                    throw BundleError.badInput("cannot read \(TerminalText.escaped(path)): \(String(cString: strerror(errno)))")
                }
                switch status.st_mode & S_IFMT {
                case S_IFREG: continue
                case S_IFDIR: pending.append(path)
                default:
                    throw BundleError.badInput("refusing \(TerminalText.escaped(path)): it is \(kind(status.st_mode)); a bundle holds only files and folders")
                }
            }
        }
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFLNK: "a symbolic link"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file (type \(String(mode & S_IFMT, radix: 8)))"
        }
    }
}
