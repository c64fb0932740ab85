import DiagModel

/// A Swift value that can be bound to a `?` placeholder.
public protocol SQLValueConvertible {
    func bind(to statement: Statement, at index: Int32) throws
}

extension SQLValue: SQLValueConvertible {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

extension Int64: SQLValueConvertible {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

extension Int: SQLValueConvertible {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(Int64(self), at: index) }
}

extension Double: SQLValueConvertible {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

extension String: SQLValueConvertible {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

/// Bytes bound as a BLOB.
public struct SQLBlob: SQLValueConvertible, Sendable, Hashable {
    public var bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(blob: bytes, at: index) }
}
