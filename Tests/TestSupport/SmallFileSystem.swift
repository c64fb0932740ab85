import Foundation
import Glibc

/// A small tmpfs mounted on a fresh temporary folder for a test, so that a disk really fills or
/// really turns read-only; unmounted when the value is released. Mounting needs root (as in CI
/// here): `canMount` is false elsewhere, and the tests that need one are skipped.
public final class SmallFileSystem {
    public let directory: TemporaryDirectory
    public var path: String { directory.path }
    private var size: String

    public init?(bytes: Int) {
        guard getuid() == 0, let directory = try? TemporaryDirectory("tmpfs") else { return nil }
        self.directory = directory
        size = "size=\(bytes)"
        guard mount("tmpfs", directory.path, "tmpfs", 0, size) == 0 else { return nil }
    }

    public static var canMount: Bool { SmallFileSystem(bytes: 1 << 20) != nil }

    public func file(_ name: String) -> URL { directory.file(name) }

    /// Remounts the file system read-only: what it holds stays, nothing can write it.
    public func freeze() throws {
        guard mount("tmpfs", path, "tmpfs", UInt(MS_REMOUNT) | UInt(MS_RDONLY), size) == 0 else {
            throw SmallFileSystemError("cannot remount \(path) read-only: \(String(cString: strerror(errno)))")
        }
    }

    /// Remounts the file system with room for `bytes` in all: space returns, as when a user
    /// frees some.
    public func resize(bytes: Int) throws {
        size = "size=\(bytes)"
        guard mount("tmpfs", path, "tmpfs", UInt(MS_REMOUNT), size) == 0 else {
            throw SmallFileSystemError("cannot remount \(path) with \(size): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes a file of zeros until the file system has no room left for this user.
    public func fill() throws {
        let descriptor = open(path + "/filler", O_WRONLY | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw SmallFileSystemError("cannot create \(path)/filler: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        var info = statvfs()
        guard statvfs(path, &info) == 0, info.f_bavail == 0 else { throw SmallFileSystemError("\(path) did not fill") }
    }

    deinit { umount2(path, Int32(MNT_DETACH)) }
}

public struct SmallFileSystemError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
