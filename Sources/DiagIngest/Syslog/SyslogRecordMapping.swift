import DiagModel

/// How a syslog message becomes a record (README "Logging from other languages"):
///
/// - `process`, `processID`, `userID`, `processImagePath`: from the kernel (`SCM_CREDENTIALS` on
///   the datagram socket); nil over TCP, where the kernel vouches for no process.
/// - `sender`: the claimed APP-NAME or tag; the claimed PID, hostname, MSGID, facility and
///   severity go to `metadata.syslogPID`, `syslogHostname`, `syslogMsgID`, `syslogFacility`,
///   `syslogSeverity` (with `syslogFormat` and `syslogTransport`; flat, since predicates reach
///   `metadata.<key>` one level deep).
/// - `messageType`: from the severity (`SyslogPriority.messageType`).
/// - `category`: the facility's name (`daemon`, `local3`, …).
/// - RFC 5424 structured data: each parameter becomes `metadata.<name>` (`<SD-ID>.<name>` when
///   the name is taken already); our own element (`diag@32473`, as `diag export --format rfc5424` writes it)
///   gives back the fields it carries.
/// - `timestamp`: the message's RFC 3339 time when it has one, else the receipt time.
extension SyslogMessage {
    func record(peer: PeerIdentity?, receiptTime: Int64, transport: String) -> LogRecord {
        var record = LogRecord(
            timestamp: timestamp ?? receiptTime, messageType: priority.messageType, sender: appName,
            category: priority.facilityName, eventMessage: message, receiptTime: receiptTime)
        // Flat keys: predicates reach `metadata.<key>` one level deep.
        var metadata: [String: JSONValue] = [
            "syslogFacility": .string(priority.facilityName), "syslogSeverity": .string(priority.severityName),
            "syslogFormat": .string(format.rawValue), "syslogTransport": .string(transport),
        ]
        if let hostname { metadata["syslogHostname"] = .string(hostname) }
        if let processID { metadata["syslogPID"] = .string(processID) }
        if let messageID { metadata["syslogMsgID"] = .string(messageID) }
        for element in structuredData {
            if element.id == "diag@32473" {
                restoreFields(element, into: &record, metadata: &metadata)
                continue
            }
            // `name`, or `SD-ID.name` when two elements (or our keys) share the name.
            for parameter in element.parameters {
                let key = metadata[parameter.name] == nil ? parameter.name : "\(element.id).\(parameter.name)"
                if metadata[key] == nil { metadata[key] = .string(parameter.value) }
            }
        }
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
