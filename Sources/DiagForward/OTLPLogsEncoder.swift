import DiagModel

/// Encodes records as the OTLP/JSON form of `ExportLogsServiceRequest`
/// (opentelemetry-proto `collector/logs/v1`), as OTLP/HTTP receivers read it: lowerCamelCase
/// keys, enums as integers, 64-bit integers as decimal strings, trace and span ids in hex.
///
/// One `ResourceLogs` per process (host and process attributes), inside it one `ScopeLogs`
/// per subsystem (the scope's name), the records in the order given. docs/EXPORT.md lists
/// which record field becomes which OTLP field or attribute.
public struct OTLPLogsEncoder: Sendable {
    /// `host.name` of every resource.
    public let hostName: String

    public init(hostName: String) {
        self.hostName = hostName
    }

    /// OTLP's `SeverityNumber` for a level: Debug 5, Info 9, Default 10 (INFO2), Error 17, Fault 18 (ERROR2).
    public static func severityNumber(of type: MessageType) -> Int64 {
        switch type {
        case .debug: 5
        case .info: 9
        case .default: 10
        case .error: 17
        case .fault: 18
        }
    }

    /// One `ExportLogsServiceRequest` holding `records`, as UTF-8 JSON without a newline.
    public func request(for records: some Collection<LogRecord>) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256 + records.count * 400)
        appendRequest(for: records, to: &writer)
        return writer.bytes
    }

    /// Appends one `ExportLogsServiceRequest` to `writer`.
    public func appendRequest(for records: some Collection<LogRecord>, to writer: inout JSONWriter) {
        writer.append(raw: "{\"resourceLogs\":[")
        for (resourceIndex, resource) in Self.grouped(records).enumerated() {
            if resourceIndex > 0 { writer.append(raw: ",") }
            writer.append(raw: "{\"resource\":{\"attributes\":[")
            appendResourceAttributes(resource.process, to: &writer)
            writer.append(raw: "]},\"scopeLogs\":[")
            for (scopeIndex, scope) in resource.scopes.enumerated() {
                if scopeIndex > 0 { writer.append(raw: ",") }
                writer.append(raw: "{\"scope\":{")
                if let subsystem = scope.subsystem {
                    writer.append(raw: "\"name\":")
                    writer.append(string: subsystem)
                }
                writer.append(raw: "},\"logRecords\":[")
                for (recordIndex, record) in scope.records.enumerated() {
                    if recordIndex > 0 { writer.append(raw: ",") }
                    appendLogRecord(record, to: &writer)
                }
                writer.append(raw: "]}")
            }
            writer.append(raw: "]}")
        }
        writer.append(raw: "]}")
    }

    private func appendResourceAttributes(_ process: ProcessIdentity, to writer: inout JSONWriter) {
        var attributes = OTLPAttributeList()
        attributes.string("host.name", hostName, to: &writer)
        // service.name is required by the resource conventions; unnamed processes get their fallback.
        attributes.string("service.name", process.name ?? "unknown_service", to: &writer)
        attributes.string("process.executable.name", process.name, to: &writer)
        attributes.string("process.executable.path", process.imagePath, to: &writer)
        attributes.int("process.pid", process.pid, to: &writer)
        attributes.int("process.user.id", process.userID, to: &writer)
    }

    /// The fields of a process that make it one OTLP resource.
    struct ProcessIdentity: Hashable {
        var name: String?
        var pid: Int64?
        var imagePath: String?
        var userID: Int64?

        init(_ record: LogRecord) {
            name = record.process
            pid = record.processID
            imagePath = record.processImagePath
            userID = record.userID
        }
    }

    struct ScopeGroup {
        var subsystem: String?
        var records: [LogRecord]
    }

    struct ResourceGroup {
        var process: ProcessIdentity
        var scopes: [ScopeGroup]
    }

    /// Records grouped by process, then by subsystem, each group in order of first appearance.
    static func grouped(_ records: some Collection<LogRecord>) -> [ResourceGroup] {
        var resources: [ResourceGroup] = []
        var resourceIndex: [ProcessIdentity: Int] = [:]
        var scopeIndex: [ProcessIdentity: [String?: Int]] = [:]
        for record in records {
            let process = ProcessIdentity(record)
            let resource: Int
            if let known = resourceIndex[process] {
                resource = known
            } else {
                resource = resources.count
                resourceIndex[process] = resource
                resources.append(ResourceGroup(process: process, scopes: []))
            }
            if let scope = scopeIndex[process]?[record.subsystem] {
                resources[resource].scopes[scope].records.append(record)
            } else {
                scopeIndex[process, default: [:]][record.subsystem] = resources[resource].scopes.count
                resources[resource].scopes.append(ScopeGroup(subsystem: record.subsystem, records: [record]))
            }
        }
        return resources
    }
}
