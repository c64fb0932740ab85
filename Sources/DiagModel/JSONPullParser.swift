/// Walks a JSON text member by member, for a reader that knows the shape it expects and wants
/// its fields without the `JSONValue` tree in between (a dictionary per object, an enum per
/// number): `StoreInfo`'s `Info.json`, read by every command that opens a store. The same
/// scanner as `JSONReader`, so the same text is refused for the same reasons; a value it skips
/// (`skipValue`) is checked whole.
///
/// The typed readers (`int`, `bool`, `string`, `null`) return nil when the value at the cursor
/// is of another kind; the cursor is then unspecified, and the caller gives up on the text (or
/// reads it again the general way). Objects: `beginObject`, then `nextKey` until it returns nil,
/// reading or skipping each member's value in between. Arrays: `beginArray`, then `nextElement`
/// until it returns false.
public struct JSONPullParser {
    private var scanner: JSONScanner
    /// For each object or array entered and not yet left: whether no member or element of it
    /// has been read yet (the next one has no comma before it).
    private var first: [Bool] = []

    public init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONReader.defaultMaxDepth) {
        scanner = JSONScanner(bytes, maxDepth: maxDepth)
    }

    /// Enters the object at the cursor; false (nothing read) when the value there is not one.
    public mutating func beginObject() throws(JSONReaderError) -> Bool {
        try begin(UInt8(ascii: "{"))
    }

    /// Enters the array at the cursor; false (nothing read) when the value there is not one.
    public mutating func beginArray() throws(JSONReaderError) -> Bool {
        try begin(UInt8(ascii: "["))
    }

    /// The next member's key, with the cursor on its value; nil once the object ends (left).
    public mutating func nextKey() throws(JSONReaderError) -> String? {
        guard try next(closing: UInt8(ascii: "}")) else { return nil }
        return try scanner.memberKey()
    }

    /// True with the cursor on the array's next element; false once the array ends (left).
    public mutating func nextElement() throws(JSONReaderError) -> Bool {
        try next(closing: UInt8(ascii: "]"))
    }

    /// The integer at the cursor (a number that fits `Int64`, as `JSONReader` reads `.int`).
    public mutating func int() throws(JSONReaderError) -> Int64? {
        guard let byte = current, byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 else { return nil }
        guard case .int(let value) = try scanner.number() else { return nil }
        return value
    }

    /// The boolean at the cursor.
    public mutating func bool() throws(JSONReaderError) -> Bool? {
        switch current {
        case UInt8(ascii: "t"): try scanner.literal("true"); return true
        case UInt8(ascii: "f"): try scanner.literal("false"); return false
        default: return nil
        }
    }

    /// The string at the cursor.
    public mutating func string() throws(JSONReaderError) -> String? {
        guard current == UInt8(ascii: "\"") else { return nil }
        return try scanner.string()
    }

    /// Reads a `null` at the cursor and returns true; false (nothing read) for any other value.
    public mutating func null() throws(JSONReaderError) -> Bool {
        guard current == UInt8(ascii: "n") else { return false }
        try scanner.literal("null")
        return true
    }

    /// Reads over the value at the cursor, checking it as `JSONReader` would.
    public mutating func skipValue() throws(JSONReaderError) {
        _ = try scanner.value()
    }

    /// Whether only whitespace is left after the value read.
    public mutating func atEnd() -> Bool {
        scanner.skipWhitespace()
        return scanner.index == scanner.bytes.count
    }

    private var current: UInt8? {
        scanner.index < scanner.bytes.count ? scanner.bytes[scanner.index] : nil
    }

    private mutating func begin(_ opening: UInt8) throws(JSONReaderError) -> Bool {
        scanner.skipWhitespace()
        guard current == opening else { return false }
        try scanner.enter()
        first.append(true)
        return true
    }

    /// Past the comma before the next member or element (none before the first), or past the
    /// closing bracket (false): `JSONScanner`'s own steps, so a trailing comma, or anything else
    /// in their place, is refused as `JSONReader` refuses it.
    private mutating func next(closing: UInt8) throws(JSONReaderError) -> Bool {
        let more: Bool
        if first[first.count - 1] {
            first[first.count - 1] = false
            more = !scanner.leavesEmpty(closing: closing)
        } else {
            more = try scanner.separator(closing: closing)
        }
        guard more else {
            first.removeLast()
            return false
        }
        scanner.skipWhitespace()
        return true
    }
}
