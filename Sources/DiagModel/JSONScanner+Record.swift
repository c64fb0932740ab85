extension LogRecord {
    /// Decodes one record straight from the UTF-8 bytes of a JSON object, without building a
    /// dictionary for it: diagd's and the NDJSON importer's fast path. Same rules as
    /// `init(json:defaultTimestamp:)`; the JSON itself is checked as strictly as `JSONReader` does.
    public init(jsonBytes bytes: UnsafeBufferPointer<UInt8>, defaultTimestamp: Int64? = nil) throws(LogRecordJSONError) {
        var scanner = JSONScanner(bytes, maxDepth: JSONReader.defaultMaxDepth)
        self = try scanner.record(defaultTimestamp: defaultTimestamp)
    }

    public init(jsonBytes bytes: [UInt8], defaultTimestamp: Int64? = nil) throws(LogRecordJSONError) {
        self = try bytes.withUnsafeBufferPointer { (buffer) throws(LogRecordJSONError) in
            try LogRecord(jsonBytes: buffer, defaultTimestamp: defaultTimestamp)
        }
    }
}

/// Why some bytes are not a log record: not JSON at all, or JSON that is not a record.
public enum LogRecordJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidJSON(JSONReaderError)
    case invalidRecord(LogRecordDecodingError)

    public var description: String {
        switch self {
        case .invalidJSON(let error): error.description
        case .invalidRecord(let error): error.description
        }
    }
}

extension JSONScanner {
    mutating func record(defaultTimestamp: Int64?) throws(LogRecordJSONError) -> LogRecord {
        var decoder = LogRecordDecoder()
        var recordError: LogRecordDecodingError?
        do throws(JSONReaderError) {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
                throw error("expected a JSON object ('{') but found \(describeCurrent())", at: index)
            }
            index += 1
            depth = 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
            } else {
                recordError = try members(into: &decoder)
            }
            skipWhitespace()
            guard index == bytes.count else {
                throw error("unexpected \(describeCurrent()) after the JSON value", at: index)
            }
        } catch {
            throw .invalidJSON(error)
        }
        if let recordError { throw .invalidRecord(recordError) }
        do throws(LogRecordDecodingError) {
            return try decoder.finish(defaultTimestamp: defaultTimestamp)
        } catch {
            throw .invalidRecord(error)
        }
    }

    /// Reads `"key": value` pairs up to the closing brace, handing known fields to the decoder.
    /// Record errors are kept until the JSON has been read to its end, so bad JSON is reported
    /// first; as in a dictionary, a repeated key's last value is the one judged.
    private mutating func members(into decoder: inout LogRecordDecoder) throws(JSONReaderError) -> LogRecordDecodingError? {
        var recordErrors: [(field: LogRecordField, error: LogRecordDecodingError)] = []
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key ('\"') in an object but found \(describeCurrent())", at: index)
            }
            let field = try fieldName()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after an object key but found \(describeCurrent())", at: index)
            }
            index += 1
            skipWhitespace()
            let value = try value()
            if let field {
                if !recordErrors.isEmpty { recordErrors.removeAll { $0.field == field } }
                do throws(LogRecordDecodingError) { try decoder.take(field, value) } catch { recordErrors.append((field, error)) }
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object, expected ',' or '}'", at: index) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth = 0
                return recordErrors.first?.error
            default: throw error("expected ',' or '}' in an object but found \(describeCurrent())", at: index)
            }
        }
    }

    /// The field a key names, nil for an unknown one. Plain ASCII keys are matched on their bytes.
    private mutating func fieldName() throws(JSONReaderError) -> LogRecordField? {
        let start = index + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                index = end + 1
                return LogRecordField.named(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            end += 1
        }
        return LogRecordField.byName[try string()]
    }
}
