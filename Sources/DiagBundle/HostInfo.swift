import Foundation

/// The machine a bundle is collected on, as the manifest and the bundle's name record it.
public struct HostInfo: Sendable {
    public var hostName: String
    /// `Linux 6.1.0-18-amd64 #1 SMP … x86_64`, from uname(2).
    public var kernel: String

    public static var current: HostInfo {
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "localhost"
        var names = utsname()
        uname(&names)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }
        let kernel = [field(names.sysname), field(names.release), field(names.version), field(names.machine)].joined(separator: " ")
        return HostInfo(hostName: host.isEmpty ? "localhost" : host, kernel: kernel)
    }

    /// The host name made safe for a file name: anything but letters, digits, `.`, `-` and `_` becomes `_`.
    public static func fileNameSafe(_ name: String) -> String {
        let safe = String(name.unicodeScalars.map { scalar -> Character in
            let allowed = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
            return allowed ? Character(scalar) : "_"
        })
        return safe.isEmpty ? "localhost" : safe
    }
}
