import DiagModel
import Foundation

/// The byte buffer behind `NDJSONWriter`: writes a record exactly as `LogRecord.writeJSON` does
/// (a test holds the two to the same bytes), but copies plain runs of text with memcpy and skips
/// them eight bytes at a time, which makes ten million records a matter of seconds. A struct, not
/// a class: stored properties of a class pay a dynamic exclusivity check on every access.
struct NDJSONEncodingBuffer: ~Copyable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    private var timestamp: [UInt8] = []
    private var metadata = JSONWriter(reservingCapacity: 256)

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
        timestamp.reserveCapacity(40)
    }

    deinit {
        base.deallocate()
    }

    mutating func removeAll() { count = 0 }

    /// The record as one line of NDJSON, newline included.
    mutating func append(_ record: LogRecord) {
        raw("{\"timestamp\":\"")
        timestamp.removeAll(keepingCapacity: true)
        Timestamp.append(nanoseconds: record.timestamp, offsetSeconds: 0, fractionDigits: 6, separator: " ", zoneColon: false, to: &timestamp)
        timestamp.withUnsafeBufferPointer { bytes(UnsafeRawPointer($0.baseAddress!), $0.count) }
        raw("\",\"timestampNanoseconds\":")
        integer(record.timestamp)
        raw(",\"messageType\":\"")
        string(record.messageType.name, quoted: false)
        raw("\",\"eventType\":\"")
        string(record.eventType.name, quoted: false)
        raw("\"")
        field(",\"process\":", record.process)
        field(",\"processID\":", record.processID)
        field(",\"processImagePath\":", record.processImagePath)
        field(",\"userID\":", record.userID)
        field(",\"sender\":", record.sender)
        field(",\"senderImagePath\":", record.senderImagePath)
        field(",\"subsystem\":", record.subsystem)
        field(",\"category\":", record.category)
        field(",\"threadID\":", record.threadID)
        field(",\"activityIdentifier\":", record.activityIdentifier)
        field(",\"parentActivityIdentifier\":", record.parentActivityIdentifier)
        field(",\"traceID\":", record.traceID)
        raw(",\"eventMessage\":")
        string(record.eventMessage, quoted: true)
        field(",\"formatString\":", record.formatString)
        field(",\"signpostID\":", record.signpostID)
        field(",\"signpostName\":", record.signpostName)
        field(",\"signpostType\":", record.signpostType)
        if let values = record.metadata {
            raw(",\"metadata\":")
            metadata.bytes.removeAll(keepingCapacity: true)
            metadata.append(.object(values))
            metadata.bytes.withUnsafeBufferPointer { bytes(UnsafeRawPointer($0.baseAddress!), $0.count) }
        }
        field(",\"receiptTime\":", record.receiptTime)
        raw("}\n")
    }

    private mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        raw(name)
        string(value, quoted: true)
    }

    private mutating func field(_ name: StaticString, _ value: Int64?) {
        guard let value else { return }
        raw(name)
        integer(value)
    }

    @inline(__always) private mutating func reserve(_ needed: Int) {
        guard count + needed > capacity else { return }
        let grown = Swift.max(capacity * 2, count + needed)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = grown
    }

    @inline(__always) private mutating func bytes(_ source: UnsafeRawPointer, _ length: Int) {
        reserve(length)
        memcpy(base + count, source, length)
        count += length
    }

    @inline(__always) private mutating func raw(_ text: StaticString) {
        bytes(text.utf8Start, text.utf8CodeUnitCount)
    }

    private mutating func integer(_ value: Int64) {
        reserve(20)
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let length = withUnsafeMutableBytes(of: &digits) { scratch -> Int in
            var position = 24
            repeat {
                position -= 1
                scratch[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                position -= 1
                scratch[position] = UInt8(ascii: "-")
            }
            memcpy(base + count, scratch.baseAddress! + position, 24 - position)
            return 24 - position
        }
        count += length
    }

    /// A JSON string, escaped as `JSONWriter` escapes it.
    private mutating func string(_ text: String, quoted: Bool) {
        var text = text
        text.withUTF8 { utf8 in
            reserve(utf8.count + 2)
            if quoted { base[count] = UInt8(ascii: "\""); count += 1 }
            var runStart = 0
            var index = 0
            while index < utf8.count {
                if index + 8 <= utf8.count, !Self.needsEscape(UnsafeRawPointer(utf8.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = utf8[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    bytes(utf8.baseAddress! + runStart, index - runStart)
                    escape(byte)
                    runStart = index + 1
                }
                index += 1
            }
            bytes(utf8.baseAddress! + runStart, utf8.count - runStart)
            if quoted { reserve(1); base[count] = UInt8(ascii: "\""); count += 1 }
        }
    }

    /// Whether any of eight bytes is a quote, a backslash or a control character.
    @inline(__always) private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        // The control test only holds for bytes below 0x80; UTF-8 bytes above are masked by ~word.
        let hits = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
        return hits & high != 0
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        default:
            let hex = Array("0123456789abcdef".utf8)
            raw("\\u00")
            reserve(2)
            base[count] = hex[Int(byte >> 4)]
            base[count + 1] = hex[Int(byte & 0xF)]
            count += 2
        }
    }
}
