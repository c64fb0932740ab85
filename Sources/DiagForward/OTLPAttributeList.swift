import DiagModel

/// Writes the elements of an OTLP `repeated KeyValue` list (`{"key":…,"value":{AnyValue}}`),
/// leaving out missing values; the caller writes the brackets.
struct OTLPAttributeList {
    private(set) var count = 0

    mutating func string(_ key: StaticString, _ value: String?, to writer: inout JSONWriter) {
        guard let value else { return }
        beginValue(key, &writer)
        writer.append(raw: "{\"stringValue\":")
        writer.append(string: value)
        writer.append(raw: "}}")
    }

    mutating func int(_ key: StaticString, _ value: Int64?, to writer: inout JSONWriter) {
        guard let value else { return }
        beginValue(key, &writer)
        Self.appendInt(value, to: &writer)
        writer.append(raw: "}")
    }

    mutating func value(_ key: StaticString, _ value: JSONValue?, to writer: inout JSONWriter) {
        guard let value else { return }
        beginValue(key, &writer)
        Self.appendAnyValue(value, to: &writer)
        writer.append(raw: "}")
    }

    private mutating func beginValue(_ key: StaticString, _ writer: inout JSONWriter) {
        if count > 0 { writer.append(raw: ",") }
        count += 1
        writer.append(raw: "{\"key\":\"")
        writer.append(raw: key)
        writer.append(raw: "\",\"value\":")
    }

    /// `{"intValue":"-12"}`: int64 is a decimal string in OTLP/JSON.
    static func appendInt(_ value: Int64, to writer: inout JSONWriter) {
        writer.append(raw: "{\"intValue\":\"")
        writer.append(value)
        writer.append(raw: "\"}")
    }

    /// A metadata value as an `AnyValue`: objects become `kvlistValue` (keys sorted), arrays
    /// `arrayValue`, and JSON null the empty `AnyValue` (no field set), as OTLP represents it.
    static func appendAnyValue(_ value: JSONValue, to writer: inout JSONWriter) {
        switch value {
        case .null:
            writer.append(raw: "{}")
        case .bool(let flag):
            writer.append(raw: flag ? "{\"boolValue\":true}" : "{\"boolValue\":false}")
        case .int(let number):
            appendInt(number, to: &writer)
        case .double(let number):
            writer.append(raw: "{\"doubleValue\":")
            if number.isFinite {
                writer.append(number)
            } else {
                // proto3 JSON spells the non-finite doubles as strings.
                writer.append(string: number.isNaN ? "NaN" : number < 0 ? "-Infinity" : "Infinity")
            }
            writer.append(raw: "}")
        case .string(let text):
            writer.append(raw: "{\"stringValue\":")
            writer.append(string: text)
            writer.append(raw: "}")
        case .array(let elements):
            writer.append(raw: "{\"arrayValue\":{\"values\":[")
            for (index, element) in elements.enumerated() {
                if index > 0 { writer.append(raw: ",") }
                appendAnyValue(element, to: &writer)
            }
            writer.append(raw: "]}}")
        case .object(let members):
            writer.append(raw: "{\"kvlistValue\":{\"values\":[")
            appendKeyValues(members, to: &writer)
            writer.append(raw: "]}}")
        }
    }

    /// The members of an object as `KeyValue` elements, keys sorted so output is deterministic.
    static func appendKeyValues(_ members: [String: JSONValue], to writer: inout JSONWriter) {
        for (index, key) in members.keys.sorted().enumerated() {
            if index > 0 { writer.append(raw: ",") }
            writer.append(raw: "{\"key\":")
            writer.append(string: key)
            writer.append(raw: ",\"value\":")
            appendAnyValue(members[key]!, to: &writer)
            writer.append(raw: "}")
        }
    }
}
