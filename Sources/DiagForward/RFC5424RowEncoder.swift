import DiagModel
import DiagStore
import Glibc

/// RFC 5424 frames written straight from a chunk's row (`RecordColumns.select`'s columns): the
/// column bytes SQLite holds go into the frame, with no `LogRecord` or `String` in between —
/// the forward's hot path. The bytes are those `RFC5424Encoder.appendFrame(for:)` writes for the
/// record the row decodes to (`RecordColumns.decode`): text outside ASCII takes the `String`
/// path, which also repairs invalid UTF-8 as decoding does; a row no record can hold is refused
/// with the same error.
final class RFC5424RowEncoder {
    let encoder: RFC5424Encoder
    /// The batch's frames (`beginBatch` … `takeBatch`). Each message is written in place,
    /// behind room for a three-digit length (most of them have one); the length goes there once
    /// the message is written.
    private var frames: ByteWriter
    private let buffers = FrameBufferPool()
    /// A new buffer's size: a full batch of 2000 frames of ~425 bytes fits.
    private static let bufferCapacity = 1 << 20
    private static let lengthRoom = 3
    private var scratch: [UInt8] = []
    /// `<PRI>1 ` for each message type code (`MessageType.rawValue`), in `prefixSlot`-byte
    /// slots; an empty slot for a code that is no message type. The frame's fixed texts are kept
    /// in writers, whose bytes are copied without the retains and checks of an `Array`.
    private var priPrefixes = ByteWriter(capacity: 8 * (maximumCode + 1))
    private var priLengths = [Int](repeating: 0, count: maximumCode + 1)
    private static let maximumCode = 17
    private static let prefixSlot = 8
    /// ` HOSTNAME `.
    private var hostField = ByteWriter(capacity: 64)
    /// The second (since the epoch) whose timestamp text `secondPrefix` and `zoneSuffix` hold.
    private var cachedSecond: Int64 = -1
    private var secondPrefix = ByteWriter(capacity: 32)
    private var zoneSuffix = ByteWriter(capacity: 16)
    /// Metadata column texts lately seen, with their escaped SD values (`metadataValue`).
    private var metadataValues = MetadataValueCache()

    init(encoder: RFC5424Encoder) {
        self.encoder = encoder
        frames = buffers.take(capacity: Self.bufferCapacity)
        scratch.reserveCapacity(64)
        priPrefixes.count = Self.prefixSlot * (Self.maximumCode + 1)
        for type in MessageType.allCases {
            var prefix = Array("<\(encoder.facility * 8 + RFC5424Encoder.severity(of: type))>1 ".utf8)
            priLengths[type.rawValue] = prefix.count
            prefix.withUnsafeMutableBufferPointer {
                (priPrefixes.base + type.rawValue * Self.prefixSlot).update(from: $0.baseAddress!, count: $0.count)
            }
        }
        hostField.append(UInt8(ascii: " "))
        hostField.append(Array(encoder.hostname.utf8))
        hostField.append(UInt8(ascii: " "))
    }

    /// Starts a batch of frames.
    func beginBatch() {
        frames.count = 0
    }

    /// The frames appended since `beginBatch`, handed over without a copy.
    func takeBatch() -> FrameBatch {
        var next = buffers.take(capacity: Self.bufferCapacity)
        swap(&frames, &next)
        return FrameBatch(writer: next, pool: buffers)
    }

    /// Appends the frame of the row `statement` is on to the batch; throws `ForwardStoreError`
    /// (and appends nothing) for a row no record can hold.
    func appendFrame(row statement: Statement, chunk: String) throws {
        try statement.withRowColumns { try appendFrame(row: $0, chunk: chunk) }
    }

    private func appendFrame(row statement: RowColumns, chunk: String) throws {
        let id = statement.int64(at: 0)
        let code = statement.int64(at: 3)
        guard code >= 0, code <= Self.maximumCode, priLengths[Int(code)] > 0 else {
            throw ForwardStoreError("\(chunk): record id \(id): column messageType holds \(code); accepted: 0, 1, 2, 16 or 17")
        }
        let eventCode = statement.int64(at: 4)
        guard let eventType = EventType(rawValue: Int(truncatingIfNeeded: eventCode)) else {
            throw ForwardStoreError("\(chunk): record id \(id): column eventType holds \(eventCode); accepted: a code of EventType (1024 for logEvent)")
        }
        let metadata: [UInt8]?
        do {
            metadata = try statement.withTextBytes(at: 22) { text in
                try text.map { try metadataValues.value(for: $0, make: Self.metadataValue) }
            }
        } catch {
            throw ForwardStoreError("\(chunk): record id \(id): column metadata: \(error)")
        }
        writeFrame(statement, code: Int(code), eventType: eventType, metadata: metadata, &frames)
    }

    /// The frame of a row checked by `appendFrame`, written at the end of `out` (the batch's
    /// writer, passed in once so that its appends are not class-property accesses each).
    private func writeFrame(_ statement: RowColumns, code: Int, eventType: EventType, metadata: [UInt8]?, _ out: inout ByteWriter) {
        let start = out.count
        out.reserve(Self.lengthRoom + 1)
        out.count += Self.lengthRoom + 1
        out.append(UnsafeBufferPointer(start: priPrefixes.base + Int(code) * Self.prefixSlot, count: priLengths[Int(code)]))
        appendTimestamp(statement.int64(at: 1), &out)
        out.append(hostField.bytes)
        let exactProcess = header(statement, 5, maxLength: 48, &out)
        out.append(UInt8(ascii: " "))
        if let processID = statement.optionalInt64(at: 6) { out.appendDigits(processID) } else { out.append(UInt8(ascii: "-")) }
        out.append(UInt8(ascii: " "))
        let exactCategory = header(statement, 12, maxLength: 32, &out)
        out.append(UInt8(ascii: " "))
        appendStructuredData(statement, process: !exactProcess, category: !exactCategory, eventType: eventType, metadata: metadata, &out)
        statement.withTextBytes(at: 17) { text in
            guard let text, !text.isEmpty else { return }
            out.append(UInt8(ascii: " "))
            if ByteScan(text).hasNonASCII {
                out.append(0xEF)
                out.append(0xBB)
                out.append(0xBF)
                if UTF8Validation.isValid(text) {
                    out.append(text)
                } else {
                    var repaired = String(decoding: text, as: UTF8.self)
                    repaired.withUTF8 { out.append($0) }
                }
            } else {
                out.append(text)
            }
        }
        Self.writeLength(frameStart: start, &out)
    }

    /// Writes `MSG-LEN SP` at `frameStart`, in the room left before the message, moving the
    /// message when its length has another number of digits than the room holds.
    private static func writeLength(frameStart start: Int, _ out: inout ByteWriter) {
        let messageStart = start + lengthRoom + 1
        let length = out.count - messageStart
        let digits = ByteWriter.decimalDigitCount(UInt64(length))
        if digits != lengthRoom {
            out.reserve(digits - lengthRoom)
            memmove(out.base + messageStart + digits - lengthRoom, out.base + messageStart, length)
            out.count += digits - lengthRoom
        }
        // The digits are written by moving the end back to the frame's start: the room after
        // the end is reserved first, so that writing them grows nothing (growing would copy
        // only the bytes before the start).
        let end = out.count
        out.reserve(24)
        out.count = start
        out.appendDigits(Int64(length))
        out.append(UInt8(ascii: " "))
        out.count = end
    }

    /// The SD value for the metadata column's `text`: the object parsed (a column that is not a
    /// JSON object is refused) and written as the record encoder writes it (`JSONWriter`, keys
    /// sorted: a function of the text alone), escaped.
    private static func metadataValue(_ text: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
        let object = try JSONReader.parseObject(text, maxDepth: 512)
        var writer = JSONWriter(reservingCapacity: 128)
        writer.append(.object(object))
        var escaped = ByteWriter(capacity: writer.bytes.count * 2)
        writer.bytes.withUnsafeBufferPointer { escaped.appendEscaped($0) }
        return Array(escaped.bytes)
    }

    /// The encoder's timestamp. Records come in runs within one second: the date, time and zone
    /// of the last second written are kept, and only the microseconds change (the zone's offset
    /// is looked up once a second, as the encoder looks it up by the second).
    private func appendTimestamp(_ nanoseconds: Int64, _ out: inout ByteWriter) {
        guard nanoseconds >= 0 else {
            scratch.removeAll(keepingCapacity: true)
            encoder.appendTimestamp(nanoseconds, to: &scratch)
            out.append(scratch)
            return
        }
        let second = nanoseconds / 1_000_000_000
        if second != cachedSecond {
            scratch.removeAll(keepingCapacity: true)
            encoder.appendTimestamp(nanoseconds, to: &scratch)
            // `YYYY-MM-DDThh:mm:ss.` then 6 digits then the zone: the first `.` is the fraction's.
            let dot = scratch.firstIndex(of: UInt8(ascii: "."))!
            secondPrefix.count = 0
            zoneSuffix.count = 0
            scratch.withUnsafeBufferPointer {
                secondPrefix.append(UnsafeBufferPointer(rebasing: $0[...dot]))
                zoneSuffix.append(UnsafeBufferPointer(rebasing: $0[(dot + 7)...]))
            }
            cachedSecond = second
        }
        out.append(secondPrefix.bytes)
        out.appendDigits(nanoseconds % 1_000_000_000 / 1000, width: 6)
        out.append(zoneSuffix.bytes)
    }

    /// A header field from a text column; whether it was written unchanged.
    private func header(_ statement: RowColumns, _ column: Int32, maxLength: Int, _ out: inout ByteWriter) -> Bool {
        statement.withTextBytes(at: column) { text in
            guard let text, !text.isEmpty else {
                out.append(UInt8(ascii: "-"))
                return true
            }
            if text.count <= maxLength && text.allSatisfy({ $0 >= 33 && $0 <= 126 }) {
                out.append(text)
                return true
            }
            scratch.removeAll(keepingCapacity: true)
            let exact = RFC5424Encoder.appendHeaderField(String(decoding: text, as: UTF8.self), maxLength: maxLength, to: &scratch)
            out.append(scratch)
            return exact
        }
    }

    /// `[diag@32473 …]`, in `StructuredDataWriter`'s order.
    private func appendStructuredData(
        _ statement: RowColumns, process: Bool, category: Bool, eventType: EventType, metadata: [UInt8]?,
        _ out: inout ByteWriter
    ) {
        out.append("[diag@32473")
        if process { text(" process=\"", statement, 5, &out) }
        if category { text(" category=\"", statement, 12, &out) }
        text(" subsystem=\"", statement, 11, &out)
        text(" sender=\"", statement, 9, &out)
        integer(" activity=\"", statement, 14, &out)
        integer(" parentActivity=\"", statement, 15, &out)
        integer(" thread=\"", statement, 13, &out)
        integer(" trace=\"", statement, 16, &out)
        if eventType != .logEvent {
            out.append(" eventType=\"")
            var name = eventType.name
            name.withUTF8 { out.appendEscaped($0) }
            out.append(UInt8(ascii: "\""))
        }
        integer(" userID=\"", statement, 8, &out)
        text(" processImagePath=\"", statement, 7, &out)
        text(" senderImagePath=\"", statement, 10, &out)
        text(" formatString=\"", statement, 18, &out)
        integer(" signpostID=\"", statement, 19, &out)
        text(" signpostName=\"", statement, 20, &out)
        text(" signpostType=\"", statement, 21, &out)
        text(" signpostScope=\"", statement, 23, &out)
        if let metadata {
            out.append(" metadata=\"")
            out.append(metadata)
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// ` name="value"` for a text column that is not NULL.
    private func text(_ opening: StaticString, _ statement: RowColumns, _ column: Int32, _ out: inout ByteWriter) {
        statement.withTextBytes(at: column) { text in
            guard let text else { return }
            out.append(opening)
            let scan = ByteScan(text)
            if scan.hasNonASCII && !UTF8Validation.isValid(text) {
                var repaired = String(decoding: text, as: UTF8.self)
                repaired.withUTF8 { out.appendEscaped($0) }
            } else {
                out.appendEscaped(text, hasSpecial: scan.hasSDSpecial)
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    /// ` name="digits"` for an integer column that is not NULL.
    private func integer(_ opening: StaticString, _ statement: RowColumns, _ column: Int32, _ out: inout ByteWriter) {
        guard let value = statement.optionalInt64(at: column) else { return }
        out.append(opening)
        out.appendDigits(value)
        out.append(UInt8(ascii: "\""))
    }
}
