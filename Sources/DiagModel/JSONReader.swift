/// A strict RFC 8259 JSON reader over UTF-8 bytes, written for the ingest path: Foundation's
/// `JSONSerialization` reads ~350k flat records/s here, this reader several times that.
///
/// Refused, with the byte offset, line and column: invalid UTF-8 (overlongs, surrogates encoded
/// in UTF-8, code points above U+10FFFF), lone `\u` surrogates, control characters in strings,
/// leading zeros, `NaN`/`Infinity`, trailing commas, text after the value, and nesting deeper than
/// `maxDepth`. Integers that fit `Int64` become `.int`; every other number becomes `.double`.
/// When an object repeats a key, the last value wins.
public enum JSONReader {
    public static let defaultMaxDepth = 64

    /// Reads one JSON text: a value, with only whitespace around it.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONReaderError) -> JSONValue {
        var scanner = JSONScanner(bytes, maxDepth: maxDepth)
        scanner.skipWhitespace()
        let value = try scanner.value()
        scanner.skipWhitespace()
        guard scanner.index == bytes.count else {
            throw scanner.error("unexpected \(scanner.describeCurrent()) after the JSON value", at: scanner.index)
        }
        return value
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONReaderError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONReaderError) in try parse(buffer, maxDepth: maxDepth) }
    }

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONReaderError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    /// Reads one JSON text that must be an object: what a log record line is.
    public static func parseObject(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONReaderError) -> [String: JSONValue] {
        var scanner = JSONScanner(bytes, maxDepth: maxDepth)
        scanner.skipWhitespace()
        guard scanner.index < bytes.count, bytes[scanner.index] == UInt8(ascii: "{") else {
            throw scanner.error("expected a JSON object ('{') but found \(scanner.describeCurrent())", at: scanner.index)
        }
        let members = try scanner.object()
        scanner.skipWhitespace()
        guard scanner.index == bytes.count else {
            throw scanner.error("unexpected \(scanner.describeCurrent()) after the JSON value", at: scanner.index)
        }
        return members
    }

    public static func parseObject(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONReaderError) -> [String: JSONValue] {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONReaderError) in try parseObject(buffer, maxDepth: maxDepth) }
    }

    public static func parseObject(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONReaderError) -> [String: JSONValue] {
        try parseObject(Array(text.utf8), maxDepth: maxDepth)
    }
}

/// Why a JSON text was refused and where: `offset` counts bytes from 0; `line` and `column` count
/// from 1, the column in bytes of that line.
public struct JSONReaderError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    public var offset: Int
    public var line: Int
    public var column: Int

    public init(reason: String, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    public var description: String {
        "invalid JSON: \(reason) at line \(line), column \(column) (byte offset \(offset))"
    }
}
