import DiagModel

/// How a syslog message becomes a record (README "Logging from other languages"):
///
/// - `process`, `processID`, `userID`, `processImagePath`: from the kernel (`SCM_CREDENTIALS` on
///   the datagram socket); nil over TCP, where the kernel vouches for no process.
/// - `sender`: the claimed APP-NAME or tag; the claimed PID, hostname, MSGID, facility and
///   severity go to `metadata.syslog`.
/// - `messageType`: from the severity (`SyslogPriority.messageType`).
/// - `category`: the facility's name (`daemon`, `local3`, …).
/// - RFC 5424 structured data: each element becomes `metadata.<SD-ID>`, an object of its
///   parameters; our own element (`diag@32473`, as `diag export --format rfc5424` writes it)
///   gives back the fields it carries.
/// - `timestamp`: the message's RFC 3339 time when it has one, else the receipt time.
extension SyslogMessage {
    func record(peer: PeerIdentity?, receiptTime: Int64, transport: String) -> LogRecord {
        var record = LogRecord(
            timestamp: timestamp ?? receiptTime, messageType: priority.messageType, sender: appName,
            category: priority.facilityName, eventMessage: message, receiptTime: receiptTime)
        var syslog: [String: JSONValue] = [
            "facility": .string(priority.facilityName), "severity": .string(priority.severityName),
            "format": .string(format.rawValue), "transport": .string(transport),
        ]
        if let hostname { syslog["hostname"] = .string(hostname) }
        if let processID { syslog["pid"] = .string(processID) }
        if let messageID { syslog["msgid"] = .string(messageID) }
        var metadata: [String: JSONValue] = [:]
        for element in structuredData {
            if element.id == "diag@32473" {
                restoreFields(element, into: &record, metadata: &metadata)
                continue
            }
            var object: [String: JSONValue] = [:]
            for parameter in element.parameters { object[parameter.name] = .string(parameter.value) }
            metadata[element.id] = .object(object)
        }
        metadata["syslog"] = .object(syslog)
        record.metadata = metadata
        if let peer { peer.stamp(&record) }
        return record
    }

    /// The fields `diag export --format rfc5424` put in its element (StructuredDataWriter).
    private func restoreFields(_ element: Element, into record: inout LogRecord, metadata: inout [String: JSONValue]) {
        for (name, value) in element.parameters {
            switch name {
            case "subsystem": record.subsystem = value
            case "category": record.category = value
            case "sender": record.sender = value
            case "activity": record.activityIdentifier = Int64(value)
            case "parentActivity": record.parentActivityIdentifier = Int64(value)
            case "thread": record.threadID = Int64(value)
            case "trace": record.traceID = Int64(value)
            case "formatString": record.formatString = value
            case "metadata":
                if let object = try? JSONReader.parseObject(Array(value.utf8)) {
                    for (key, item) in object { metadata[key] = item }
                }
            default: break
            }
        }
    }
}
