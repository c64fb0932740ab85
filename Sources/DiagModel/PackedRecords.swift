/// Records as the bind values of their chunk rows, packed back to back in one byte buffer: what
/// diagd's connections hand its single writer, so that the writer binds bytes it is pointed at
/// instead of reading `LogRecord` strings, and frees one buffer instead of every record's.
///
/// A row is the 23 columns of `RecordFields.all`, in that order (`columnCount`), each a tag
/// byte: `null`; `integer` then 8 bytes (little-endian); `text` then a 4-byte length and the
/// UTF-8 bytes. Text is valid UTF-8: every writer here checks it (a decoded `String`, or the
/// JSON scanner's checks).
public struct PackedRecords: Sendable, ExpressibleByArrayLiteral {
    public enum Tag: UInt8 {
        case null = 0
        case integer = 1
        case text = 2
    }

    /// The columns of a row, as `RecordFields.all` lists them.
    public static let columnCount = 23

    public private(set) var bytes: [UInt8] = []
    public private(set) var count = 0
    /// Where the last row starts in `bytes`.
    public private(set) var lastRowStart = 0

    public init() {}

    public init(_ records: some Sequence<LogRecord>) {
        for record in records { append(record) }
    }

    public init(arrayLiteral records: LogRecord...) {
        self.init(records)
    }

    public var isEmpty: Bool { count == 0 }
    public var capacity: Int { bytes.capacity }

    public mutating func reserveCapacity(_ byteCount: Int) {
        bytes.reserveCapacity(byteCount)
    }

    public mutating func removeAll(keepingCapacity: Bool) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
        count = 0
        lastRowStart = 0
    }

    public mutating func append(contentsOf other: PackedRecords) {
        guard !other.isEmpty else { return }
        lastRowStart = bytes.count + other.lastRowStart
        bytes.append(contentsOf: other.bytes)
        count += other.count
    }

    /// Packs a record's fields, in column order.
    public mutating func append(_ record: LogRecord) {
        lastRowStart = bytes.count
        var row = RowWriter(bytes: bytes)
        bytes = []
        row.integer(record.timestamp)
        row.integer(record.receiptTime)
        row.integer(Int64(record.messageType.rawValue))
        row.integer(Int64(record.eventType.rawValue))
        row.text(record.process)
        row.integer(record.processID)
        row.text(record.processImagePath)
        row.integer(record.userID)
        row.text(record.sender)
        row.text(record.senderImagePath)
        row.text(record.subsystem)
        row.text(record.category)
        row.integer(record.threadID)
        row.integer(record.activityIdentifier)
        row.integer(record.parentActivityIdentifier)
        row.integer(record.traceID)
        row.text(record.eventMessage)
        row.text(record.formatString)
        row.integer(record.signpostID)
        row.text(record.signpostName)
        row.text(record.signpostType)
        if let metadata = record.metadata {
            var writer = JSONWriter(reservingCapacity: 128)
            writer.append(.object(metadata))
            writer.bytes.withUnsafeBufferPointer { row.text($0) }
        } else {
            row.null()
        }
        row.text(record.signpostScope)
        bytes = row.bytes
        count += 1
    }

    /// Appends one row written by `write`, which must write every column in order.
    @usableFromInline
    mutating func appendRow(_ write: (inout RowWriter) -> Void) {
        lastRowStart = bytes.count
        var row = RowWriter(bytes: bytes)
        bytes = []
        write(&row)
        bytes = row.bytes
        count += 1
    }

    /// Appends one row of exactly `byteCount` bytes (`RawRowWriter.size` of its columns),
    /// written by `write` through a pointer: the buffer grows once a row instead of at each of
    /// its 23 columns' two or three appends, which were a fifth of diagd's connection threads'
    /// time (Array's `append(contentsOf:)` and its uniqueness checks, `perf record -g`).
    mutating func appendRow(byteCount: Int, _ write: (inout RawRowWriter) -> Void) {
        let start = bytes.count
        lastRowStart = start
        Self.appendZeros(byteCount, to: &bytes)
        bytes.withUnsafeMutableBytes { raw in
            var row = RawRowWriter(next: raw.baseAddress! + start, end: raw.baseAddress! + start + byteCount)
            write(&row)
            precondition(row.next == row.end, "a packed row wrote other than the bytes it counted")
        }
        count += 1
    }

    /// Zeros to grow a buffer by, copied from (Array grows geometrically, as with any append).
    private static let zeros = [UInt8](repeating: 0, count: 4096)

    private static func appendZeros(_ count: Int, to bytes: inout [UInt8]) {
        var left = count
        zeros.withUnsafeBufferPointer { zeros in
            while left > 0 {
                let step = min(left, zeros.count)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: zeros[0..<step]))
                left -= step
            }
        }
    }

    /// Lends the rows, one `Row` at a time, in order.
    @inlinable
    public func forEachRow(_ body: (inout Row) throws -> Void) rethrows {
        try bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            for _ in 0..<count {
                var row = Row(buffer: buffer, offset: offset)
                try body(&row)
                row.skipRest()
                offset = row.offset
            }
        }
    }

    /// One column's value, lent from the batch's buffer.
    public enum Value {
        case null
        case integer(Int64)
        case text(UnsafeBufferPointer<UInt8>)
    }

    /// A cursor over one row's columns.
    public struct Row {
        @usableFromInline let buffer: UnsafeBufferPointer<UInt8>
        @usableFromInline var offset: Int
        @usableFromInline var column = 0

        @inlinable init(buffer: UnsafeBufferPointer<UInt8>, offset: Int) {
            self.buffer = buffer
            self.offset = offset
        }

        /// The next column's value; the pointer of a text stays valid during `forEachRow`.
        @inlinable @inline(__always)
        public mutating func next() -> Value {
            let base = UnsafeRawPointer(buffer.baseAddress!)
            let tag = buffer[offset]
            column += 1
            switch tag {
            case Tag.integer.rawValue:
                let value = Int64(littleEndian: (base + offset + 1).loadUnaligned(as: Int64.self))
                offset += 9
                return .integer(value)
            case Tag.text.rawValue:
                let length = Int(UInt32(littleEndian: (base + offset + 1).loadUnaligned(as: UInt32.self)))
                let start = offset + 5
                offset = start + length
                return .text(UnsafeBufferPointer(rebasing: buffer[start..<(start + length)]))
            default:
                offset += 1
                return .null
            }
        }

        @inlinable mutating func skipRest() {
            while column < PackedRecords.columnCount { _ = next() }
        }
    }
}

/// Writes one row's columns at the end of a batch's bytes.
@usableFromInline
struct RowWriter {
    var bytes: [UInt8]

    mutating func null() {
        bytes.append(PackedRecords.Tag.null.rawValue)
    }

    mutating func integer(_ value: Int64?) {
        guard let value else { return null() }
        bytes.append(PackedRecords.Tag.integer.rawValue)
        // As typed bytes: Array's append of raw bytes goes element by element.
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
    }

    mutating func text(_ value: String?) {
        guard var value else { return null() }
        value.withUTF8 { text($0) }
    }

    mutating func text(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(PackedRecords.Tag.text.rawValue)
        withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
        bytes.append(contentsOf: utf8)
    }
}

/// Writes one row's columns into the bytes `PackedRecords.appendRow(byteCount:_:)` made room
/// for, in the same format as `RowWriter`. Each write checks that it stays inside the row.
struct RawRowWriter {
    var next: UnsafeMutableRawPointer
    let end: UnsafeMutableRawPointer

    /// The bytes of a row's columns: `nulls` nulls, `integers` integers, and texts of
    /// `textBytes` UTF-8 bytes in all, `texts` of them.
    static func size(nulls: Int, integers: Int, texts: Int, textBytes: Int) -> Int {
        nulls + integers * 9 + texts * 5 + textBytes
    }

    @inline(__always)
    private mutating func reserve(_ count: Int) -> UnsafeMutableRawPointer {
        precondition(end - next >= count, "a packed row wrote more than the bytes it counted")
        defer { next += count }
        return next
    }

    @inline(__always)
    mutating func null() {
        reserve(1).storeBytes(of: PackedRecords.Tag.null.rawValue, as: UInt8.self)
    }

    @inline(__always)
    mutating func integer(_ value: Int64) {
        let at = reserve(9)
        at.storeBytes(of: PackedRecords.Tag.integer.rawValue, as: UInt8.self)
        at.storeBytes(of: value.littleEndian, toByteOffset: 1, as: Int64.self)
    }

    @inline(__always)
    mutating func text(_ utf8: UnsafeBufferPointer<UInt8>) {
        let at = reserve(5 + utf8.count)
        at.storeBytes(of: PackedRecords.Tag.text.rawValue, as: UInt8.self)
        at.storeBytes(of: UInt32(utf8.count).littleEndian, toByteOffset: 1, as: UInt32.self)
        if let base = utf8.baseAddress, utf8.count > 0 { (at + 5).copyMemory(from: base, byteCount: utf8.count) }
    }

    mutating func text(_ value: String?) {
        guard var value else { return null() }
        value.withUTF8 { text($0) }
    }
}
