import DiagModel

/// Turns one `journalctl -o json` entry into a record.
///
/// `__REALTIME_TIMESTAMP` (µs, a string) → `timestamp`; `MESSAGE` (a string, a byte array for
/// binary text, or null) → `eventMessage`; `PRIORITY` 0–2 → Fault, 3 → Error, 4–5 → Default,
/// 6 → Info, 7 → Debug; `_PID` → `processID`; `_COMM` (else `SYSLOG_IDENTIFIER`) → `process`;
/// `SYSLOG_IDENTIFIER` → `sender`; `_EXE` → `processImagePath`; `_UID` → `userID`; `TID`/`_TID`
/// → `threadID`; `_SYSTEMD_UNIT` → `subsystem`; `SYSLOG_FACILITY` → `category` by name (`auth`,
/// `daemon`…); `_HOSTNAME` → `metadata.hostname`; every other field (`CODE_FILE`, `CODE_LINE`,
/// `__CURSOR`…) → `metadata` under its own name.
enum JournalEntryMapping {
    enum Outcome {
        case record(LogRecord)
        case refused(String)
    }

    static func record(from entry: [String: JSONValue]) -> Outcome {
        guard let micros = entry["__REALTIME_TIMESTAMP"].flatMap(integer) ?? entry["_SOURCE_REALTIME_TIMESTAMP"].flatMap(integer) else {
            let refused = entry["__REALTIME_TIMESTAMP"].map { " (refused value \(short($0)))" } ?? " is missing"
            return .refused("field \"__REALTIME_TIMESTAMP\"\(refused); accepted: microseconds since the Unix epoch, such as \"1764409201123456\"")
        }
        let (nanoseconds, overflow) = micros.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return .refused("field \"__REALTIME_TIMESTAMP\" \(micros) is too far from 1970 to hold in nanoseconds") }
        var record = LogRecord(timestamp: nanoseconds, eventMessage: "")
        var metadata: [String: JSONValue] = [:]
        for (key, value) in entry {
            if case .null = value { continue }
            switch key {
            case "__REALTIME_TIMESTAMP": continue
            case "MESSAGE":
                guard let text = text(value) else { return .refused(refusal("MESSAGE", value, "a string or an array of bytes")) }
                record.eventMessage = text
            case "PRIORITY":
                guard let priority = integer(value), (0...7).contains(priority) else {
                    return .refused(refusal("PRIORITY", value, "0 to 7, as a string or a number"))
                }
                record.messageType = level(priority)
            case "_PID", "_UID", "TID", "_TID":
                guard let number = integer(value) else { return .refused(refusal(key, value, "an integer, as a string or a number")) }
                switch key {
                case "_PID": record.processID = number
                case "_UID": record.userID = number
                default: record.threadID = number
                }
            case "_COMM": record.process = text(value)
            case "SYSLOG_IDENTIFIER": record.sender = text(value)
            case "_EXE": record.processImagePath = text(value)
            case "_SYSTEMD_UNIT": record.subsystem = text(value)
            case "SYSLOG_FACILITY":
                record.category = integer(value).flatMap(facilityName) ?? text(value)
            case "_HOSTNAME": metadata["hostname"] = value
            default: metadata[key] = value
            }
        }
        if record.process == nil { record.process = record.sender }
        record.metadata = metadata.isEmpty ? nil : metadata
        return .record(record)
    }

    /// PRIORITY (syslog severity) as a level.
    static func level(_ priority: Int64) -> MessageType {
        switch priority {
        case 0...2: .fault
        case 3: .error
        case 6: .info
        case 7: .debug
        default: .default
        }
    }

    private static let facilities = [
        "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp",
        "ntp", "security", "console", "solaris-cron", "local0", "local1", "local2", "local3", "local4", "local5",
        "local6", "local7",
    ]

    private static func facilityName(_ code: Int64) -> String? {
        code >= 0 && code < facilities.count ? facilities[Int(code)] : nil
    }

    /// A journal value as text: a string; a byte array (binary-safe fields) decoded as UTF-8 with
    /// repairs; for a field given several times, the first value.
    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .array(let elements):
            var bytes: [UInt8] = []
            bytes.reserveCapacity(elements.count)
            for element in elements {
                guard case .int(let byte) = element, (0...255).contains(byte) else {
                    return elements.first.flatMap(text)
                }
                bytes.append(UInt8(byte))
            }
            return String(decoding: bytes, as: UTF8.self)
        default: return nil
        }
    }

    private static func integer(_ value: JSONValue) -> Int64? {
        switch value {
        case .int(let number): return number
        case .string(let text): return Int64(text)
        default: return nil
        }
    }

    private static func refusal(_ field: String, _ value: JSONValue, _ accepted: String) -> String {
        "field \"\(field)\": refused value \(short(value)); accepted: \(accepted)"
    }

    private static func short(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.append(value)
        let text = String(decoding: writer.bytes.prefix(80), as: UTF8.self)
        return writer.bytes.count > 80 ? text + "…" : text
    }
}
