import DiagModel
import Foundation

/// Decodes the protobuf form of `ExportLogsServiceRequest` (`application/x-protobuf`), field by
/// field as opentelemetry-proto numbers them. Unknown fields are skipped; a known field with
/// another wire type than its schema's is refused.
enum OTLPProtobufDecoder {
    static func decode(_ body: [UInt8]) throws(OTLPDecodeError) -> OTLPLogsRequest {
        try body.withUnsafeBufferPointer { (buffer) throws(OTLPDecodeError) in
            var request = OTLPLogsRequest()
            var reader = ProtobufReader(buffer, message: "ExportLogsServiceRequest")
            while let (number, wireType) = try reader.nextField() {
                guard number == 1 else { try reader.skip(wireType); continue }
                try reader.expect(wireType, is: .lengthDelimited, field: "resource_logs (1)")
                var resource = try reader.embedded("ResourceLogs")
                request.resources.append(try resourceLogs(&resource, request: &request))
            }
            return request
        }
    }

    private static func resourceLogs(_ reader: inout ProtobufReader, request: inout OTLPLogsRequest) throws(OTLPDecodeError) -> OTLPLogsRequest.Resource {
        var resource = OTLPLogsRequest.Resource()
        while let (number, wireType) = try reader.nextField() {
            switch number {
            case 1:
                try reader.expect(wireType, is: .lengthDelimited, field: "resource (1)")
                var inner = try reader.embedded("Resource")
                while let (field, type) = try inner.nextField() {
                    guard field == 1 else { try inner.skip(type); continue }
                    try inner.expect(type, is: .lengthDelimited, field: "attributes (1)")
                    var pair = try inner.embedded("KeyValue")
                    resource.attributes.append(try keyValue(&pair))
                }
            case 2:
                try reader.expect(wireType, is: .lengthDelimited, field: "scope_logs (2)")
                var scope = try reader.embedded("ScopeLogs")
                resource.scopes.append(try scopeLogs(&scope, request: &request))
            default:
                try reader.skip(wireType)
            }
        }
        return resource
    }

    private static func scopeLogs(_ reader: inout ProtobufReader, request: inout OTLPLogsRequest) throws(OTLPDecodeError) -> OTLPLogsRequest.Scope {
        var scope = OTLPLogsRequest.Scope()
        while let (number, wireType) = try reader.nextField() {
            switch number {
            case 1:
                try reader.expect(wireType, is: .lengthDelimited, field: "scope (1)")
                var inner = try reader.embedded("InstrumentationScope")
                while let (field, type) = try inner.nextField() {
                    guard field == 1 else { try inner.skip(type); continue }
                    try inner.expect(type, is: .lengthDelimited, field: "name (1)")
                    let name = try inner.string("InstrumentationScope.name")
                    scope.name = name.isEmpty ? nil : name
                }
            case 2:
                try reader.expect(wireType, is: .lengthDelimited, field: "log_records (2)")
                try request.countRecord()
                var record = try reader.embedded("LogRecord")
                scope.records.append(try logRecord(&record))
            default:
                try reader.skip(wireType)
            }
        }
        return scope
    }

    private static func logRecord(_ reader: inout ProtobufReader) throws(OTLPDecodeError) -> OTLPLogsRequest.Record {
        var record = OTLPLogsRequest.Record()
        record.size = reader.end - reader.position
        while let (number, wireType) = try reader.nextField() {
            switch number {
            case 1:
                try reader.expect(wireType, is: .fixed64, field: "time_unix_nano (1)")
                record.timeUnixNano = try reader.fixed64()
            case 11:
                try reader.expect(wireType, is: .fixed64, field: "observed_time_unix_nano (11)")
                record.observedTimeUnixNano = try reader.fixed64()
            case 2:
                try reader.expect(wireType, is: .varint, field: "severity_number (2)")
                record.severityNumber = Int64(bitPattern: try reader.varint())
            case 3:
                try reader.expect(wireType, is: .lengthDelimited, field: "severity_text (3)")
                record.severityText = try reader.string("severity_text")
            case 5:
                try reader.expect(wireType, is: .lengthDelimited, field: "body (5)")
                var value = try reader.embedded("AnyValue")
                record.body = try anyValue(&value)
            case 6:
                try reader.expect(wireType, is: .lengthDelimited, field: "attributes (6)")
                var pair = try reader.embedded("KeyValue")
                record.attributes.append(try keyValue(&pair))
            case 9:
                try reader.expect(wireType, is: .lengthDelimited, field: "trace_id (9)")
                record.traceID = try reader.data()
            case 10:
                try reader.expect(wireType, is: .lengthDelimited, field: "span_id (10)")
                record.spanID = try reader.data()
            case 12:
                try reader.expect(wireType, is: .lengthDelimited, field: "event_name (12)")
                record.eventName = try reader.string("event_name")
            default:
                try reader.skip(wireType)
            }
        }
        return record
    }

    private static func keyValue(_ reader: inout ProtobufReader) throws(OTLPDecodeError) -> (key: String, value: JSONValue) {
        var key = ""
        var value = JSONValue.null
        while let (number, wireType) = try reader.nextField() {
            switch number {
            case 1:
                try reader.expect(wireType, is: .lengthDelimited, field: "key (1)")
                key = try reader.string("KeyValue.key")
            case 2:
                try reader.expect(wireType, is: .lengthDelimited, field: "value (2)")
                var inner = try reader.embedded("AnyValue")
                value = try anyValue(&inner)
            default:
                try reader.skip(wireType)
            }
        }
        return (key, value)
    }

    /// One `AnyValue`; the last of its oneof fields wins, as protobuf's rule is.
    private static func anyValue(_ reader: inout ProtobufReader) throws(OTLPDecodeError) -> JSONValue {
        var value = JSONValue.null
        while let (number, wireType) = try reader.nextField() {
            switch number {
            case 1:
                try reader.expect(wireType, is: .lengthDelimited, field: "string_value (1)")
                value = .string(try reader.string("string_value"))
            case 2:
                try reader.expect(wireType, is: .varint, field: "bool_value (2)")
                value = .bool(try reader.varint() != 0)
            case 3:
                try reader.expect(wireType, is: .varint, field: "int_value (3)")
                value = .int(Int64(bitPattern: try reader.varint()))
            case 4:
                try reader.expect(wireType, is: .fixed64, field: "double_value (4)")
                value = .double(Double(bitPattern: try reader.fixed64()))
            case 5, 6:
                try reader.expect(wireType, is: .lengthDelimited, field: number == 5 ? "array_value (5)" : "kvlist_value (6)")
                var list = try reader.embedded(number == 5 ? "ArrayValue" : "KeyValueList")
                var elements: [JSONValue] = []
                var members: [String: JSONValue] = [:]
                while let (field, type) = try list.nextField() {
                    guard field == 1 else { try list.skip(type); continue }
                    try list.expect(type, is: .lengthDelimited, field: "values (1)")
                    if number == 5 {
                        var element = try list.embedded("AnyValue")
                        elements.append(try anyValue(&element))
                    } else {
                        var pair = try list.embedded("KeyValue")
                        let (key, member) = try keyValue(&pair)
                        members[key] = member
                    }
                }
                value = number == 5 ? .array(elements) : .object(members)
            case 7:
                try reader.expect(wireType, is: .lengthDelimited, field: "bytes_value (7)")
                value = .string(Data(try reader.data()).base64EncodedString())
            default:
                try reader.skip(wireType)
            }
        }
        return value
    }
}
