import DiagModel

/// An `ExportLogsServiceRequest` as read from either encoding (opentelemetry-proto
/// `collector/logs/v1`), before it is mapped to records. `AnyValue`s are held as `JSONValue`
/// (a `kvlistValue` as an object, `bytesValue` as its base64 text, an empty `AnyValue` as null).
struct OTLPLogsRequest {
    /// More records than this in one request are refused whole (HTTP 413): the SDKs send 512.
    static let maximumRecords = 65_536

    var resources: [Resource] = []
    var recordCount = 0

    struct Resource {
        var attributes: [(key: String, value: JSONValue)] = []
        var scopes: [Scope] = []
    }

    struct Scope {
        var name: String?
        var records: [Record] = []
    }

    struct Record {
        var timeUnixNano: UInt64 = 0
        var observedTimeUnixNano: UInt64 = 0
        var severityNumber: Int64 = 0
        var severityText: String?
        var body: JSONValue?
        var attributes: [(key: String, value: JSONValue)] = []
        var traceID: [UInt8] = []
        var spanID: [UInt8] = []
        var eventName: String?
        /// Bytes it took on the wire: what bounds the writer's queue in bytes.
        var size = 0
    }

    mutating func countRecord() throws(OTLPDecodeError) {
        recordCount += 1
        guard recordCount <= Self.maximumRecords else {
            throw OTLPDecodeError("the request holds more than \(Self.maximumRecords) log records; send them in smaller batches", isTooLarge: true)
        }
    }
}
