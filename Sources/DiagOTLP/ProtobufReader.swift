/// Reads the protobuf wire format (varints, fixed32/64, length-delimited fields) from a buffer
/// that a peer sent, bounded: every length is checked against what is left of its enclosing
/// message, a varint has at most 10 bytes, messages nest at most `maximumDepth` deep, strings
/// must be valid UTF-8. An error names the byte offset and what was wrong.
struct ProtobufReader {
    enum WireType: UInt8, CustomStringConvertible {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, startGroup = 3, endGroup = 4, fixed32 = 5

        var description: String {
            switch self {
            case .varint: "varint (0)"
            case .fixed64: "fixed64 (1)"
            case .lengthDelimited: "length-delimited (2)"
            case .startGroup: "start-group (3)"
            case .endGroup: "end-group (4)"
            case .fixed32: "fixed32 (5)"
            }
        }
    }

    static let maximumDepth = 32
    /// Embedded messages in one body (records, attributes, values): each becomes a value in
    /// memory, so this bounds what a body of tiny messages (2 bytes each) costs to decode.
    static let maximumMessages = 524_288

    /// The messages left to read in this body, shared by the readers of its embedded messages.
    final class Budget {
        var remaining = ProtobufReader.maximumMessages
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    let end: Int
    let depth: Int
    /// The message being read, for errors: "LogRecord".
    let message: String
    let budget: Budget

    init(_ bytes: UnsafeBufferPointer<UInt8>, message: String) {
        self.init(bytes, range: 0..<bytes.count, depth: 0, message: message, budget: Budget())
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, depth: Int, message: String, budget: Budget) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
        self.depth = depth
        self.message = message
        self.budget = budget
    }

    var isAtEnd: Bool { position >= end }

    func failure(_ reason: String, at offset: Int? = nil) -> OTLPDecodeError {
        OTLPDecodeError("protobuf: \(message) at byte \(offset ?? position): \(reason)")
    }

    /// The next field's number and wire type; nil at the end of the message.
    mutating func nextField() throws(OTLPDecodeError) -> (number: UInt64, wireType: WireType)? {
        guard !isAtEnd else { return nil }
        let start = position
        let key = try varint()
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
            throw failure("wire type \(key & 7) does not exist (0, 1, 2, 5 are read; 3 and 4 are obsolete groups)", at: start)
        }
        let number = key >> 3
        guard number > 0 else { throw failure("field number 0 is not allowed", at: start) }
        return (number, wireType)
    }

    mutating func varint() throws(OTLPDecodeError) -> UInt64 {
        let start = position
        var value: UInt64 = 0
        for index in 0..<10 {
            guard position < end else { throw failure("a varint is cut off by the end of its message", at: start) }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << UInt64(7 * index)
            if byte & 0x80 == 0 { return value }
        }
        throw failure("a varint runs past 10 bytes", at: start)
    }

    mutating func fixed64() throws(OTLPDecodeError) -> UInt64 {
        guard end - position >= 8 else { throw failure("a fixed64 needs 8 bytes, \(end - position) are left") }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[position + index]) << UInt64(8 * index) }
        position += 8
        return value
    }

    mutating func fixed32() throws(OTLPDecodeError) -> UInt32 {
        guard end - position >= 4 else { throw failure("a fixed32 needs 4 bytes, \(end - position) are left") }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[position + index]) << UInt32(8 * index) }
        position += 4
        return value
    }

    /// The range of a length-delimited field's content, checked against the enclosing message.
    mutating func lengthDelimited() throws(OTLPDecodeError) -> Range<Int> {
        let start = position
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw failure("a length of \(length) bytes runs past the end of its message (\(end - position) bytes left)", at: start)
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    /// A reader of an embedded message, one level deeper.
    mutating func embedded(_ name: String) throws(OTLPDecodeError) -> ProtobufReader {
        let range = try lengthDelimited()
        guard depth + 1 <= Self.maximumDepth else {
            throw failure("messages nest more than \(Self.maximumDepth) deep", at: range.lowerBound)
        }
        budget.remaining -= 1
        guard budget.remaining >= 0 else {
            throw OTLPDecodeError(
                "protobuf: the body holds more than \(Self.maximumMessages) embedded messages (records, attributes, values); send smaller batches",
                isTooLarge: true)
        }
        return ProtobufReader(bytes, range: range, depth: depth + 1, message: name, budget: budget)
    }

    mutating func string(_ field: String) throws(OTLPDecodeError) -> String {
        let range = try lengthDelimited()
        guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
            throw failure("\(field) is not valid UTF-8", at: range.lowerBound)
        }
        return text
    }

    mutating func data() throws(OTLPDecodeError) -> [UInt8] {
        Array(bytes[try lengthDelimited()])
    }

    /// Passes over a field this reader does not use (protobuf's rule for unknown fields).
    mutating func skip(_ wireType: WireType) throws(OTLPDecodeError) {
        switch wireType {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .fixed32: _ = try fixed32()
        case .lengthDelimited: _ = try lengthDelimited()
        case .startGroup, .endGroup: throw failure("groups (wire types 3 and 4) are not part of OTLP")
        }
    }

    /// Refuses a known field sent with another wire type than its schema's.
    func expect(_ wireType: WireType, is expected: WireType, field: String) throws(OTLPDecodeError) {
        guard wireType == expected else {
            throw failure("\(field) has wire type \(wireType); the OTLP schema gives it \(expected)")
        }
    }
}

/// Why a request body was refused (HTTP 400), with where: a byte offset or a JSON path.
struct OTLPDecodeError: Error, CustomStringConvertible {
    let description: String
    /// Too much rather than malformed: answered 413, not 400.
    var isTooLarge = false
    init(_ description: String, isTooLarge: Bool = false) {
        self.description = description
        self.isTooLarge = isTooLarge
    }
}
