import Glibc

/// An error of the daemon's setup or I/O, with what went wrong and where.
public struct IngestError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) { self.description = description }

    /// An error from a failed system call, with `errno`'s text.
    static func system(_ what: String, errno code: Int32 = errno) -> IngestError {
        IngestError("\(what): \(String(cString: strerror(code))) (errno \(code))")
    }
}
