import DiagModel

/// journald's export format (`journalctl -o export`, systemd's JOURNAL_EXPORT_FORMATS): entries
/// separated by an empty line; a field is `NAME=text\n`, or, for binary-safe values (newlines,
/// other bytes), `NAME\n`, a 64-bit little-endian length, the bytes and `\n`. Each entry becomes
/// the same record as its `journalctl -o json` twin (JournalEntryMapping): a value that is UTF-8
/// is a string, another is an array of bytes, as journalctl's JSON writes it. A field repeated in
/// an entry keeps its first value.
///
/// Bounded: a value is at most `options.maxLineLength` bytes, a name 1…64 of `A-Z 0-9 _`, an
/// entry at most `maximumFields` fields. A bad name or a length past the limit cannot be
/// skipped safely (the bytes after it are not known to be fields): reading stops with an issue.
extension LogFileReader {
    static let maximumExportFields = 4096

    static func looksLikeJournalExport(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        ["__CURSOR=", "__REALTIME_TIMESTAMP=", "__MONOTONIC_TIMESTAMP=", "__SEQNUM="].contains { line.starts(with: $0.utf8) }
    }

    func readJournalExport(record: (LogRecord) throws -> Void, issue: (ImportIssue) throws -> Void) throws {
        var reader = JournalExportFields(stream: stream, maximumValue: options.maxLineLength)
        var entry: [String: JSONValue] = [:]
        var entryLine = 1
        var fieldCount = 0
        func finishEntry() throws {
            defer { entry = [:]; fieldCount = 0 }
            guard fieldCount > 0 else { return }
            switch JournalEntryMapping.record(from: entry) {
            case .record(let decoded): try record(decoded)
            case .refused(let reason): try issue(ImportIssue(file: source, line: entryLine, reason: reason))
            }
        }
        while true {
            let field: JournalExportFields.Field?
            do throws(JournalExportFields.Failure) {
                field = try reader.next()
            } catch {
                try issue(ImportIssue(file: source, line: error.line, reason: error.reason + "; reading stopped"))
                return
            }
            guard let field else { break }
            switch field {
            case .endOfEntry:
                try finishEntry()
            case .value(let name, let value, let line):
                if fieldCount == 0 { entryLine = line }
                fieldCount += 1
                guard fieldCount <= Self.maximumExportFields else {
                    try issue(ImportIssue(file: source, line: line, reason: "an entry has more than \(Self.maximumExportFields) fields; reading stopped"))
                    return
                }
                if entry[name] == nil { entry[name] = value }
            }
        }
        try finishEntry()
    }
}

/// The fields of an export stream, one at a time.
struct JournalExportFields {
    enum Field {
        case value(name: String, value: JSONValue, line: Int)
        case endOfEntry
    }

    struct Failure: Error {
        let line: Int
        let reason: String
    }

    let stream: ByteStream
    let maximumValue: Int
    private var line = 1

    init(stream: ByteStream, maximumValue: Int) {
        self.stream = stream
        self.maximumValue = maximumValue
    }

    mutating func next() throws(Failure) -> Field? {
        guard let newline = try find(newlineWithin: maximumValue + 66) else {
            guard stream.available.isEmpty else { throw Failure(line: line, reason: "the last field has no closing newline") }
            return nil
        }
        let bytes = stream.available
        let fieldLine = line
        line += 1
        if newline == 0 {
            stream.start += 1
            return .endOfEntry
        }
        let equals = bytes[0..<newline].firstIndex(of: UInt8(ascii: "="))
        let nameEnd = equals ?? newline
        guard (1...64).contains(nameEnd), bytes[0..<nameEnd].allSatisfy(Self.isNameByte) else {
            let shown = String(decoding: bytes[0..<min(nameEnd, 64)], as: UTF8.self)
            throw Failure(line: fieldLine, reason: "field name '\(shown)' is not 1…64 of A-Z, 0-9 and _ (is this `journalctl -o export` output?)")
        }
        let name = String(decoding: bytes[0..<nameEnd], as: UTF8.self)
        if let equals {
            let value = Self.value(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<newline]))
            stream.start += newline + 1
            return .value(name: name, value: value, line: fieldLine)
        }
        // Binary-safe: NAME\n, 64-bit little-endian length, the bytes, \n.
        stream.start += newline + 1
        guard try ensure(8) else { throw Failure(line: fieldLine, reason: "binary field \(name) ends before its 8-byte length") }
        var length: UInt64 = 0
        for index in 0..<8 { length |= UInt64(stream.available[index]) << (8 * UInt64(index)) }
        guard length <= UInt64(maximumValue) else {
            throw Failure(line: fieldLine, reason: "binary field \(name) announces \(length) bytes; the limit is \(maximumValue) bytes")
        }
        let count = Int(length)
        guard try ensure(8 + count + 1) else { throw Failure(line: fieldLine, reason: "binary field \(name) ends before its \(count) bytes") }
        let data = stream.available
        guard data[8 + count] == 0x0A else {
            throw Failure(line: fieldLine, reason: "binary field \(name): its \(count) bytes are not followed by a newline")
        }
        let value = Self.value(UnsafeBufferPointer(rebasing: data[8..<(8 + count)]))
        stream.start += 8 + count + 1
        return .value(name: name, value: value, line: fieldLine)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte &- 0x30 < 10) || byte == UInt8(ascii: "_")
    }

    /// UTF-8 as a string; other bytes as an array of numbers, as `journalctl -o json` writes them.
    private static func value(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue {
        if let text = String(validating: bytes, as: UTF8.self) { return .string(text) }
        return .array(bytes.map { .int(Int64($0)) })
    }

    /// The index of the next newline in the buffered bytes, reading more as needed; nil at the end.
    private func find(newlineWithin limit: Int) throws(Failure) -> Int? {
        var searched = 0
        while true {
            let bytes = stream.available
            if let index = bytes[searched...].firstIndex(of: 0x0A) { return index }
            searched = bytes.count
            guard searched <= limit else { throw Failure(line: line, reason: "a line is longer than \(limit) bytes") }
            if try fill() == .endOfInput { return nil }
        }
    }

    /// Whether `count` bytes are buffered, reading more as needed.
    private func ensure(_ count: Int) throws(Failure) -> Bool {
        while stream.available.count < count {
            if try fill() == .endOfInput { return stream.available.count >= count }
        }
        return true
    }

    private func fill() throws(Failure) -> ByteStream.FillResult {
        let result: ByteStream.FillResult
        do throws(ImportError) {
            result = try stream.fill(limit: maximumValue + 128).result
        } catch {
            throw Failure(line: line, reason: "\(error)")
        }
        if result == .full { throw Failure(line: line, reason: "a field is longer than \(maximumValue) bytes") }
        return result
    }
}
