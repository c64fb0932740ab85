import Foundation
/// Why a bundle could not be written, read or trusted.
///
/// `exitCode` follows DESIGN.md: 65 when the bundle (or another input) is bad, 1 when the
/// machine failed us (disk full, a file that vanished, SQLite refusing a snapshot).
public struct BundleError: Error, CustomStringConvertible, Sendable, Equatable {
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let description: String
        /// The input is wrong: a hostile or damaged archive, a checksum mismatch, a bad argument value.
        public static let badInput = Kind(description: "bad input")
        /// The operation failed for reasons outside the input: I/O, SQLite, libarchive.
        public static let failure = Kind(description: "failure")
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var exitCode: Int32 { kind == .badInput ? 65 : 1 }
    public var description: String { message }

    /// The same error with a temporary folder's path replaced by the archive it was unpacked
    /// from: the folder is gone by the time the user reads the message.
    func naming(_ temporary: URL, as archive: String) -> BundleError {
        BundleError(kind, message.replacingOccurrences(of: temporary.path, with: archive))
    }

    static func badInput(_ message: String) -> BundleError { BundleError(.badInput, message) }
    static func failure(_ message: String) -> BundleError { BundleError(.failure, message) }
}
