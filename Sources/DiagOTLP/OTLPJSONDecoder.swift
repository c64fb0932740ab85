import DiagModel
import Foundation

/// Decodes the JSON form of `ExportLogsServiceRequest` (`application/json`) as the OTLP
/// specification writes it: lowerCamelCase field names, 64-bit integers as decimal strings (or
/// numbers), enums as integers, trace and span ids in hex, `bytesValue` in base64. Unknown
/// fields are ignored; a known field of the wrong type is refused with its path.
enum OTLPJSONDecoder {
    /// Deep enough for a request's own structure plus a dozen levels of nested attribute values.
    static let maximumDepth = 64
    /// Objects and arrays in one body. Parsed, each takes about 600 bytes: a 16 MiB body of `{}`
    /// would take gigabytes, so the body is counted before it is parsed. 512 records of a dozen
    /// attributes hold about 16,000.
    static let maximumContainers = 131_072

    static func decode(_ body: [UInt8]) throws(OTLPDecodeError) -> OTLPLogsRequest {
        let containers = countContainers(body)
        guard containers <= maximumContainers else {
            throw OTLPDecodeError(
                "JSON: the body holds more than \(maximumContainers) objects and arrays (\(containers)); send smaller batches", isTooLarge: true)
        }
        let root: [String: JSONValue]
        do {
            root = try JSONReader.parseObject(body, maxDepth: maximumDepth)
        } catch {
            throw OTLPDecodeError("JSON: \(error)")
        }
        var request = OTLPLogsRequest()
        for (resourceIndex, resourceValue) in try array(root["resourceLogs"], "resourceLogs").enumerated() {
            let path = "resourceLogs[\(resourceIndex)]"
            let resourceLogs = try object(resourceValue, path)
            var resource = OTLPLogsRequest.Resource()
            if let inner = resourceLogs["resource"] {
                resource.attributes = try keyValues(try object(inner, "\(path).resource")["attributes"], "\(path).resource.attributes")
            }
            for (scopeIndex, scopeValue) in try array(resourceLogs["scopeLogs"], "\(path).scopeLogs").enumerated() {
                let scopePath = "\(path).scopeLogs[\(scopeIndex)]"
                let scopeLogs = try object(scopeValue, scopePath)
                var scope = OTLPLogsRequest.Scope()
                if let inner = scopeLogs["scope"] {
                    let name = try string(try object(inner, "\(scopePath).scope")["name"], "\(scopePath).scope.name")
                    scope.name = name?.isEmpty == false ? name : nil
                }
                for (recordIndex, recordValue) in try array(scopeLogs["logRecords"], "\(scopePath).logRecords").enumerated() {
                    try request.countRecord()
                    scope.records.append(try logRecord(recordValue, "\(scopePath).logRecords[\(recordIndex)]"))
                }
                resource.scopes.append(scope)
            }
            request.resources.append(resource)
        }
        return request
    }

    /// `{` and `[` outside strings; the parser checks the rest of the syntax.
    static func countContainers(_ body: [UInt8]) -> Int {
        var count = 0
        var inString = false
        var escaped = false
        for byte in body {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                count += 1
            }
        }
        return count
    }

    private static func logRecord(_ value: JSONValue, _ path: String) throws(OTLPDecodeError) -> OTLPLogsRequest.Record {
        let fields = try object(value, path)
        var record = OTLPLogsRequest.Record()
        record.timeUnixNano = try unsigned(fields["timeUnixNano"], "\(path).timeUnixNano")
        record.observedTimeUnixNano = try unsigned(fields["observedTimeUnixNano"], "\(path).observedTimeUnixNano")
        record.severityNumber = try integer(fields["severityNumber"], "\(path).severityNumber") ?? 0
        record.severityText = try string(fields["severityText"], "\(path).severityText")
        if let body = fields["body"] { record.body = try anyValue(body, "\(path).body") }
        record.attributes = try keyValues(fields["attributes"], "\(path).attributes")
        record.traceID = try hex(fields["traceId"], "\(path).traceId", length: 16)
        record.spanID = try hex(fields["spanId"], "\(path).spanId", length: 8)
        record.eventName = try string(fields["eventName"], "\(path).eventName")
        var writer = JSONWriter()
        writer.append(value)
        record.size = writer.bytes.count
        return record
    }

    private static func keyValues(_ value: JSONValue?, _ path: String) throws(OTLPDecodeError) -> [(key: String, value: JSONValue)] {
        var pairs: [(key: String, value: JSONValue)] = []
        for (index, element) in try array(value, path).enumerated() {
            let pair = try object(element, "\(path)[\(index)]")
            let key = try string(pair["key"], "\(path)[\(index)].key") ?? ""
            let member = try pair["value"].map { (value) throws(OTLPDecodeError) in try anyValue(value, "\(path)[\(index)].value") } ?? .null
            pairs.append((key, member))
        }
        return pairs
    }

    private static func anyValue(_ value: JSONValue, _ path: String) throws(OTLPDecodeError) -> JSONValue {
        let fields = try object(value, path)
        if let text = fields["stringValue"] { return .string(try string(text, "\(path).stringValue") ?? "") }
        if let flag = fields["boolValue"] {
            guard case .bool(let bool) = flag else { throw OTLPDecodeError("JSON: \(path).boolValue must be true or false") }
            return .bool(bool)
        }
        if let number = fields["intValue"] { return .int(try integer(number, "\(path).intValue") ?? 0) }
        if let number = fields["doubleValue"] {
            switch number {
            case .int(let whole): return .double(Double(whole))
            case .double(let real): return .double(real)
            case .string("NaN"): return .double(.nan)
            case .string("Infinity"): return .double(.infinity)
            case .string("-Infinity"): return .double(-.infinity)
            default: throw OTLPDecodeError("JSON: \(path).doubleValue must be a number, \"NaN\", \"Infinity\" or \"-Infinity\"")
            }
        }
        if let list = fields["arrayValue"] {
            let values = try array(try object(list, "\(path).arrayValue")["values"], "\(path).arrayValue.values")
            var elements: [JSONValue] = []
            for (index, element) in values.enumerated() { elements.append(try anyValue(element, "\(path).arrayValue.values[\(index)]")) }
            return .array(elements)
        }
        if let list = fields["kvlistValue"] {
            let pairs = try keyValues(try object(list, "\(path).kvlistValue")["values"], "\(path).kvlistValue.values")
            return .object(Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last }))
        }
        if let bytes = fields["bytesValue"] {
            guard let text = try string(bytes, "\(path).bytesValue"), Data(base64Encoded: text) != nil else {
                throw OTLPDecodeError("JSON: \(path).bytesValue must be base64 text")
            }
            return .string(text)
        }
        return .null
    }

    private static func object(_ value: JSONValue, _ path: String) throws(OTLPDecodeError) -> [String: JSONValue] {
        guard case .object(let fields) = value else { throw OTLPDecodeError("JSON: \(path) must be an object") }
        return fields
    }

    /// A repeated field: missing or null is empty.
    private static func array(_ value: JSONValue?, _ path: String) throws(OTLPDecodeError) -> [JSONValue] {
        switch value {
        case nil, .null?: return []
        case .array(let elements)?: return elements
        default: throw OTLPDecodeError("JSON: \(path) must be an array")
        }
    }

    private static func string(_ value: JSONValue?, _ path: String) throws(OTLPDecodeError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw OTLPDecodeError("JSON: \(path) must be a string")
        }
    }

    /// An int64 as OTLP/JSON writes it: a decimal string, or a plain number.
    private static func integer(_ value: JSONValue?, _ path: String) throws(OTLPDecodeError) -> Int64? {
        switch value {
        case nil, .null?: return nil
        case .int(let number)?: return number
        case .string(let text)?:
            guard let number = Int64(text) else { throw OTLPDecodeError("JSON: \(path) '\(text.prefix(40))' is not a 64-bit integer") }
            return number
        default: throw OTLPDecodeError("JSON: \(path) must be an integer (a decimal string or a number)")
        }
    }

    /// A fixed64 time in nanoseconds: a decimal string, or a plain number; missing is 0 (unset).
    private static func unsigned(_ value: JSONValue?, _ path: String) throws(OTLPDecodeError) -> UInt64 {
        switch value {
        case nil, .null?: return 0
        case .int(let number)? where number >= 0: return UInt64(number)
        case .string(let text)?:
            guard let number = UInt64(text) else { throw OTLPDecodeError("JSON: \(path) '\(text.prefix(40))' is not an unsigned 64-bit integer") }
            return number
        default: throw OTLPDecodeError("JSON: \(path) must be an unsigned integer (a decimal string or a number)")
        }
    }

    /// A trace or span id: `length` bytes in hex (OTLP/JSON's exception to base64); empty is unset.
    private static func hex(_ value: JSONValue?, _ path: String, length: Int) throws(OTLPDecodeError) -> [UInt8] {
        guard let text = try string(value, path), !text.isEmpty else { return [] }
        let digits = Array(text.utf8)
        guard digits.count == length * 2 else { throw OTLPDecodeError("JSON: \(path) must be \(length * 2) hex digits, not \(digits.count)") }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexDigit(digits[index]), let low = hexDigit(digits[index + 1]) else {
                throw OTLPDecodeError("JSON: \(path) holds a character that is not a hex digit")
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexDigit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
