/// One argument of a firehose message, as the tracepoint's data items give it.
public enum FirehoseValue: Sendable, Equatable {
    /// An integer or floating-point scalar, little-endian, 1 to 8 bytes.
    case scalar(UInt64, byteCount: Int)
    /// A precision or width given at run time (`%.*s`), consumed by the next specifier.
    case count(Int)
    /// A C string (`%s`) or an object's description (`%@`); nil for a NULL pointer.
    case string(String?)
    /// Bytes (`%P`, `%{…}.16P`); nil for a NULL pointer.
    case data([UInt8]?)
    /// A value logged as private or sensitive: Apple's `log` shows `<private>`.
    case privateValue
    /// An item whose range lies outside its data: shown as Apple shows undecodable items.
    case damaged(String)

    /// The value types of the data items (the first byte of each item).
    static func decode(
        type: UInt8, inline: ArraySlice<UInt8>, values: ArraySlice<UInt8>, privateData: ArraySlice<UInt8>?
    ) -> FirehoseValue {
        switch type {
        case 0x00, 0x02:
            return .scalar(littleEndian(inline), byteCount: inline.count)
        case 0x01:
            return .privateValue
        case 0x10, 0x12:
            return .count(Int(truncatingIfNeeded: Int32(truncatingIfNeeded: littleEndian(inline))))
        default:
            break
        }
        let kind = type >> 4, privacy = type & 0x0F
        guard inline.count == 4 else {
            // Not a range: a scalar of a type not seen before; keep its bytes as a number.
            return .scalar(littleEndian(inline.prefix(8)), byteCount: min(inline.count, 8))
        }
        let offset = Int(inline[inline.startIndex]) | Int(inline[inline.startIndex + 1]) << 8
        let size = Int(inline[inline.startIndex + 2]) | Int(inline[inline.startIndex + 3]) << 8
        if privacy == 0x5 { return .privateValue }
        let source: ArraySlice<UInt8>
        if privacy == 0x1 {
            guard let privateData, size > 0 else { return .privateValue }
            source = privateData
        } else {
            source = values
        }
        let bytes: [UInt8]?
        if size == 0 {
            bytes = nil
        } else {
            guard offset + size <= source.count else {
                return .damaged("value range \(offset)+\(size) outside the \(source.count) bytes of data")
            }
            bytes = Array(source[(source.startIndex + offset)..<(source.startIndex + offset + size)])
        }
        switch kind {
        case 0x3, 0xF:
            return .data(bytes)
        default:
            guard let bytes else { return .string(nil) }
            let text = bytes.last == 0 ? bytes.dropLast() : bytes[...]
            let end = text.firstIndex(of: 0) ?? text.endIndex
            return .string(String(decoding: text[..<end], as: UTF8.self))
        }
    }

    static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        for (index, byte) in bytes.prefix(8).enumerated() { value |= UInt64(byte) << (8 * UInt64(index)) }
        return value
    }

    /// Reads `unknown, count, items…` and resolves each item against the values that follow.
    /// `valuesStart` is where the values data begins (after the items), and everything from
    /// there to `reader.end` is values data.
    static func readItems(
        _ reader: inout LittleEndianReader, privateData: ArraySlice<UInt8>?, hasBacktrace: Bool
    ) throws(AppleLogError) -> (values: [FirehoseValue], backtrace: Backtrace?) {
        guard reader.remaining >= 2 else { return ([], nil) }
        _ = try reader.u8("data items unknown byte")
        let count = Int(try reader.u8("data item count"))
        var items: [(type: UInt8, inline: ArraySlice<UInt8>)] = []
        for _ in 0..<count {
            let type = try reader.u8("data item type")
            let size = Int(try reader.u8("data item size"))
            items.append((type, try reader.take(size, "data item of type 0x\(String(type, radix: 16))")))
        }
        let values = reader.bytes[reader.position..<reader.end]
        let backtrace = hasBacktrace ? try Backtrace.read(at: reader) : nil
        return (items.map { decode(type: $0.type, inline: $0.inline, values: values, privateData: privateData) }, backtrace)
    }
}
