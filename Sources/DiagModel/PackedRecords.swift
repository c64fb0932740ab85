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
        var metadata: [UInt8]?
        if let fields = record.metadata {
            var writer = JSONWriter(reservingCapacity: 128)
            writer.append(.object(fields))
            metadata = writer.bytes
        }
        appendRow(RecordColumns(record: record, metadata: metadata))
    }

    /// Appends the row `source` writes: its columns are counted first (`RowMeasure`), the
    /// buffer grows once by that many bytes, and `RawRowWriter` writes them through a pointer.
    /// Written column by column with Array's appends, two or three a column, the rows took a
    /// fifth of diagd's connection threads' time (`perf record -g`); counting and writing go
    /// through the same `writeColumns`, so they cannot disagree. Public for the readers of other
    /// wire formats that pack rows themselves (diagd's syslog reader).
    public mutating func appendRow(_ source: some PackedRowSource) {
        var measure = RowMeasure()
        source.writeColumns(to: &measure)
        let byteCount = measure.byteCount
        let start = bytes.count
        lastRowStart = start
        Self.appendZeros(byteCount, to: &bytes)
        bytes.withUnsafeMutableBytes { raw in
            var row = RawRowWriter(next: raw.baseAddress! + start, end: raw.baseAddress! + start + byteCount)
            source.writeColumns(to: &row)
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

/// Where a row's columns go, each once and in column order: `RowMeasure` counts their bytes,
/// `RawRowWriter` writes them. Text must be well-formed UTF-8 (`UTF8Validation`).
public protocol PackedColumns {
    mutating func null()
    mutating func integer(_ value: Int64)
    mutating func text(_ utf8: UnsafeBufferPointer<UInt8>)
}

extension PackedColumns {
    public mutating func integer(_ value: Int64?) {
        guard let value else { return null() }
        integer(value)
    }

    public mutating func text(_ value: String?) {
        guard var value else { return null() }
        value.withUTF8 { text($0) }
    }
}

/// A row's 23 columns, written in order to any `PackedColumns` (twice for each row packed:
/// counted, then written).
public protocol PackedRowSource {
    func writeColumns(to columns: inout some PackedColumns)
}

/// A `LogRecord`'s columns, its metadata already written out as JSON.
private struct RecordColumns: PackedRowSource {
    let record: LogRecord
    let metadata: [UInt8]?

    func writeColumns(to row: inout some PackedColumns) {
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
        if let metadata { metadata.withUnsafeBufferPointer { row.text($0) } } else { row.null() }
        row.text(record.signpostScope)
    }
}

/// Counts the bytes of a row's columns.
struct RowMeasure: PackedColumns {
    var byteCount = 0

    mutating func null() { byteCount += 1 }
    mutating func integer(_ value: Int64) { byteCount += 9 }
    mutating func text(_ utf8: UnsafeBufferPointer<UInt8>) { byteCount += 5 + utf8.count }
}

/// Writes a row's columns (each a tag byte: `null`; `integer` and 8 bytes; `text`, a 4-byte
/// length and the bytes) into the bytes `PackedRecords.appendRow` made room for. Each write
/// checks that it stays inside the row.
struct RawRowWriter: PackedColumns {
    var next: UnsafeMutableRawPointer
    let end: UnsafeMutableRawPointer

    @inline(__always)
    private mutating func reserve(_ count: Int) -> UnsafeMutableRawPointer {
        precondition(end - next >= count, "a packed row wrote more than the bytes it counted")
        defer { next += count }
        return next
    }

    mutating func null() {
        reserve(1).storeBytes(of: PackedRecords.Tag.null.rawValue, as: UInt8.self)
    }

    mutating func integer(_ value: Int64) {
        let at = reserve(9)
        at.storeBytes(of: PackedRecords.Tag.integer.rawValue, as: UInt8.self)
        at.storeBytes(of: value.littleEndian, toByteOffset: 1, as: Int64.self)
    }

    mutating func text(_ utf8: UnsafeBufferPointer<UInt8>) {
        let at = reserve(5 + utf8.count)
        at.storeBytes(of: PackedRecords.Tag.text.rawValue, as: UInt8.self)
        at.storeBytes(of: UInt32(utf8.count).littleEndian, toByteOffset: 1, as: UInt32.self)
        if let base = utf8.baseAddress, utf8.count > 0 { (at + 5).copyMemory(from: base, byteCount: utf8.count) }
    }
}
