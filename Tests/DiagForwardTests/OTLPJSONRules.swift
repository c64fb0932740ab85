import DiagModel
import Foundation
import TestSupport

/// Checks an `ExportLogsServiceRequest` in OTLP/JSON against the OTLP specification's rules:
/// only the proto's lowerCamelCase field names, enums as integers, 64-bit integers as decimal
/// strings, trace and span ids as hex of the right length, AnyValue with one value field, and
/// the fields this project promises on every record. Returns the problems, each with its path.
struct OTLPJSONRules {
    private(set) var problems: [String] = []
    /// The log records seen, flattened with their scope and resource.
    private(set) var records: [OTLPReceivedRecord] = []

    static func check(_ json: [UInt8]) -> OTLPJSONRules {
        var rules = OTLPJSONRules()
        do {
            let root = try JSONReader.parseObject(json)
            rules.request(root)
        } catch {
            rules.problems.append("$: not a JSON object: \(error)")
        }
        return rules
    }

    private mutating func keys(_ object: [String: JSONValue], _ allowed: Set<String>, _ path: String) {
        for key in object.keys where !allowed.contains(key) { problems.append("\(path).\(key): not a field of this message") }
    }

    private mutating func array(_ value: JSONValue?, _ path: String, required: Bool = true) -> [JSONValue] {
        guard let value else {
            if required { problems.append("\(path): missing") }
            return []
        }
        guard case .array(let elements) = value else { problems.append("\(path): not an array"); return [] }
        if required && elements.isEmpty { problems.append("\(path): empty (OTLP senders must not send empty envelopes)") }
        return elements
    }

    private mutating func object(_ value: JSONValue, _ path: String) -> [String: JSONValue] {
        guard let object = value.objectValue else { problems.append("\(path): not an object"); return [:] }
        return object
    }

    private mutating func request(_ root: [String: JSONValue]) {
        keys(root, ["resourceLogs"], "$")
        for (index, resourceValue) in array(root["resourceLogs"], "$.resourceLogs").enumerated() {
            let path = "$.resourceLogs[\(index)]"
            let resourceLogs = object(resourceValue, path)
            keys(resourceLogs, ["resource", "scopeLogs", "schemaUrl"], path)
            let resource = object(resourceLogs["resource"] ?? .null, "\(path).resource")
            keys(resource, ["attributes", "droppedAttributesCount", "entityRefs"], "\(path).resource")
            let resourceAttributes = attributes(resource["attributes"], "\(path).resource.attributes")
            for required in ["host.name", "service.name"] where resourceAttributes[required] == nil {
                problems.append("\(path).resource.attributes: no \(required)")
            }
            for (scopeIndex, scopeValue) in array(resourceLogs["scopeLogs"], "\(path).scopeLogs").enumerated() {
                let scopePath = "\(path).scopeLogs[\(scopeIndex)]"
                let scopeLogs = object(scopeValue, scopePath)
                keys(scopeLogs, ["scope", "logRecords", "schemaUrl"], scopePath)
                let scope = object(scopeLogs["scope"] ?? .object([:]), "\(scopePath).scope")
                keys(scope, ["name", "version", "attributes", "droppedAttributesCount"], "\(scopePath).scope")
                if let name = scope["name"], name.stringValue == nil { problems.append("\(scopePath).scope.name: not a string") }
                for (recordIndex, recordValue) in array(scopeLogs["logRecords"], "\(scopePath).logRecords").enumerated() {
                    let recordPath = "\(scopePath).logRecords[\(recordIndex)]"
                    logRecord(object(recordValue, recordPath), recordPath, scope: scope["name"]?.stringValue, resource: resourceAttributes)
                }
            }
        }
    }

    private mutating func logRecord(_ record: [String: JSONValue], _ path: String, scope: String?, resource: [String: JSONValue]) {
        keys(record, ["timeUnixNano", "observedTimeUnixNano", "severityNumber", "severityText", "body", "attributes",
                      "droppedAttributesCount", "flags", "traceId", "spanId", "eventName"], path)
        let attributes = attributes(record["attributes"], "\(path).attributes")
        let time = fixed64(record["timeUnixNano"], "\(path).timeUnixNano", required: attributes["diag.timestamp"] == nil)
        _ = fixed64(record["observedTimeUnixNano"], "\(path).observedTimeUnixNano", required: time != nil)
        var severity: Int64?
        switch record["severityNumber"] {
        case .int(let number)? where (1...24).contains(number): severity = number
        case nil: problems.append("\(path).severityNumber: missing")
        case let other?: problems.append("\(path).severityNumber: \(other) is not an integer 1…24 (enums are integers in OTLP/JSON)")
        }
        if record["severityText"]?.stringValue == nil { problems.append("\(path).severityText: missing or not a string") }
        let body = record["body"].map { anyValue($0, "\(path).body") } ?? nil
        if body == nil { problems.append("\(path).body: missing") }
        for (name, length) in [("traceId", 32), ("spanId", 16)] {
            guard let value = record[name] else { continue }
            guard let text = value.stringValue, text.count == length, text.allSatisfy(\.isHexDigit) else {
                problems.append("\(path).\(name): \(value) is not \(length) hex digits (ids are hex, not base64, in OTLP/JSON)")
                continue
            }
            if text.allSatisfy({ $0 == "0" }) { problems.append("\(path).\(name): all zero, an invalid id") }
        }
        if record["spanId"] != nil && record["traceId"] == nil { problems.append("\(path).spanId: without a traceId") }
        records.append(OTLPReceivedRecord(
            resource: resource, scope: scope, timeUnixNano: time, severityNumber: severity,
            severityText: record["severityText"]?.stringValue, body: body, attributes: attributes,
            traceId: record["traceId"]?.stringValue, spanId: record["spanId"]?.stringValue))
    }

    /// A `fixed64`/`int64`: a string of decimal digits in range.
    private mutating func fixed64(_ value: JSONValue?, _ path: String, required: Bool) -> UInt64? {
        guard let value else {
            if required { problems.append("\(path): missing") }
            return nil
        }
        guard let text = value.stringValue, let number = UInt64(text) else {
            problems.append("\(path): \(value) is not a decimal string (64-bit integers are strings in OTLP/JSON)")
            return nil
        }
        return number
    }

    /// A `repeated KeyValue` as a dictionary of the values, checked on the way.
    private mutating func attributes(_ value: JSONValue?, _ path: String) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (index, element) in array(value, path, required: false).enumerated() {
            let keyValue = object(element, "\(path)[\(index)]")
            keys(keyValue, ["key", "value"], "\(path)[\(index)]")
            guard let key = keyValue["key"]?.stringValue, !key.isEmpty else {
                problems.append("\(path)[\(index)].key: missing or empty")
                continue
            }
            if result[key] != nil { problems.append("\(path): the key \(key) twice") }
            result[key] = keyValue["value"].map { anyValue($0, "\(path)[\(index)].value") } ?? nil ?? .null
        }
        return result
    }

    /// An `AnyValue` as the JSON value it stands for; nil (and a problem) if malformed.
    private mutating func anyValue(_ value: JSONValue, _ path: String) -> JSONValue? {
        let fields = object(value, path)
        guard fields.count <= 1 else { problems.append("\(path): more than one value field \(fields.keys.sorted())"); return nil }
        guard let (name, content) = fields.first else { return .null }
        switch (name, content) {
        case ("stringValue", .string): return content
        case ("boolValue", .bool): return content
        case ("intValue", .string(let text)):
            guard let number = Int64(text) else { problems.append("\(path).intValue: '\(text)' is not a 64-bit decimal"); return nil }
            return .int(number)
        case ("doubleValue", .double), ("doubleValue", .int): return content
        case ("arrayValue", .object(let list)):
            return .array(array(list["values"], "\(path).arrayValue.values", required: false).enumerated().compactMap { anyValue($1, "\(path).arrayValue.values[\($0)]") })
        case ("kvlistValue", .object(let list)):
            return .object(attributes(list["values"], "\(path).kvlistValue.values"))
        default:
            problems.append("\(path).\(name): \(content) is not a valid AnyValue field")
            return nil
        }
    }
}

/// One log record as a receiver saw it.
struct OTLPReceivedRecord {
    var resource: [String: JSONValue]
    var scope: String?
    var timeUnixNano: UInt64?
    var severityNumber: Int64?
    var severityText: String?
    var body: JSONValue?
    var attributes: [String: JSONValue]
    var traceId: String?
    var spanId: String?
}

/// Decompresses a gzip body with the system's `gzip`, an implementation independent of ours.
func gunzipBytes(_ bytes: [UInt8]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
    process.arguments = ["-dc"]
    let input = Spawning.pipe(), output = Spawning.pipe(), errors = Spawning.pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.spawn()
    // Feed stdin from another thread so a full stdout pipe cannot block both sides.
    let writer = input.fileHandleForWriting
    let feeding = Thread {
        try? writer.write(contentsOf: Data(bytes))
        try? writer.close()
    }
    feeding.start()
    let decompressed = output.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    guard process.waitForExit(seconds: 600) else {
        throw ReceiverError(description: "gzip -dc (pid \(process.processIdentifier)) was not reaped in 600 s")
    }
    guard process.terminationStatus == 0 else {
        throw ReceiverError(description: "gzip -dc: status \(process.terminationStatus): \(String(decoding: message, as: UTF8.self))")
    }
    return Array(decompressed)
}
