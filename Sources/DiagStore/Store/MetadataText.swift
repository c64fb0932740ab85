import DiagModel

/// The `metadata` column: a JSON object as text, written with DiagModel's `JSONWriter` and read
/// back with its `JSONReader`.
enum MetadataText {
    static func encode(_ metadata: [String: JSONValue]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128)
        writer.append(.object(metadata))
        return writer.bytes
    }

    /// Deeper than any reader accepts on input, so that whatever was stored reads back.
    static let maxDepth = 512

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws -> [String: JSONValue] {
        try JSONReader.parseObject(bytes, maxDepth: maxDepth)
    }
}
