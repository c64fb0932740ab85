import Foundation
import Glibc
import Synchronization

/// `senderImagePath` on Linux: the image (executable or shared library) holding the call site,
/// found from the caller's `#dsohandle` in the process's mappings, and the call site's module (from
/// `#fileID`) in parentheses, as linkers name a member of an archive (`libfoo.a(bar.o)`).
/// Swift modules are mostly linked into the executable, so the module is what tells senders
/// apart: `/usr/bin/syncd(CoreData)`; a module in a shared library reads
/// `/usr/lib/libTransport.so(Transport)`. So `senderImagePath CONTAINS "CoreData"` finds what
/// `sender == "CoreData"` finds, and the path says which program or library it was in.
enum SenderImage {
    /// Image paths by DSO handle: a process has a handful, each looked up once.
    private static let images = Mutex<[UInt: String]>([:])

    static func path(module: String, dsoHandle: UnsafeRawPointer) -> String {
        let key = UInt(bitPattern: dsoHandle)
        let image = images.withLock { cache in
            if let known = cache[key] { return known }
            let found = imagePath(dsoHandle)
            cache[key] = found
            return found
        }
        return "\(image)(\(module))"
    }

    /// The file the loader mapped the handle's image from, looked up in /proc/self/maps (Swift's
    /// Glibc module leaves out dladdr); the executable's path when none is found.
    private static func imagePath(_ handle: UnsafeRawPointer) -> String {
        let address = UInt(bitPattern: handle)
        guard let file = fopen("/proc/self/maps", "r") else { return executablePath() }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // start-end perms offset dev inode path
            let fields = text.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, let dash = fields[0].firstIndex(of: "-"),
                  let low = UInt(fields[0][..<dash], radix: 16), let high = UInt(fields[0][fields[0].index(after: dash)...], radix: 16),
                  address >= low, address < high
            else { continue }
            let path = fields[5].trimmingCharacters(in: .whitespacesAndNewlines)
            return path.hasPrefix("/") ? path : executablePath()
        }
        return executablePath()
    }

    private static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "?" }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
