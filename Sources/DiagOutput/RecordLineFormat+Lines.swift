import DiagModel

extension RecordLineFormat {
    /// `2026-11-29 09:40:01.123456+0000 0x1a2b     Default     0x0                  4242   0    process: (sender) [subsystem:category] message`
    func appendDefaultLine(_ record: LogRecord, offset: Int, to line: inout [UInt8]) {
        Timestamp.append(nanoseconds: record.timestamp, offsetSeconds: offset, fractionDigits: 6, separator: " ", zoneColon: false, to: &line)
        line.append(UInt8(ascii: " "))
        appendPadded(hex(record.threadID ?? 0), width: 10, to: &line)
        let type = typeName(record)
        appendColored(type, record, to: &line)
        appendSpaces(11 - type.utf8.count + 1, to: &line)
        appendPadded(hex(record.activityIdentifier ?? 0), width: 20, to: &line)
        appendPadded(String(record.processID ?? 0), width: 6, to: &line)
        appendPadded("0", width: 4, to: &line)
        if let process = record.process {
            appendText(process, to: &line)
            line.append(contentsOf: ": ".utf8)
        }
        appendSenderAndSubsystem(record, to: &line)
        appendText(record.eventMessage, message: true, to: &line)
        line.append(UInt8(ascii: "\n"))
    }

    /// `2026-11-29 09:40:01.123 Df process[4242:1a2b] [subsystem:category] message`
    func appendCompactLine(_ record: LogRecord, offset: Int, to line: inout [UInt8]) {
        Timestamp.append(nanoseconds: record.timestamp, offsetSeconds: offset, fractionDigits: 3, separator: " ", zoneColon: false, to: &line)
        line.removeLast(5)  // compact shows local time without the zone
        line.append(UInt8(ascii: " "))
        let code = compactCode(record)
        appendColored(code, record, to: &line)
        line.append(UInt8(ascii: " "))
        appendText(record.process ?? "", to: &line)
        line.append(UInt8(ascii: "["))
        line.append(contentsOf: String(record.processID ?? 0).utf8)
        line.append(UInt8(ascii: ":"))
        line.append(contentsOf: hex(record.threadID ?? 0).dropFirst(2).utf8)
        line.append(contentsOf: "] ".utf8)
        if let subsystem = record.subsystem {
            appendSubsystem(subsystem, record.category, to: &line)
            line.append(UInt8(ascii: " "))
        } else if let sender = record.sender {
            line.append(UInt8(ascii: "("))
            appendText(sender, to: &line)
            line.append(contentsOf: ") ".utf8)
        }
        appendText(record.eventMessage, message: true, to: &line)
        line.append(UInt8(ascii: "\n"))
    }

    /// `2026-11-29 09:40:01.123456+0000  localhost process[4242]: (sender) [subsystem:category] message`
    func appendSyslogLine(_ record: LogRecord, offset: Int, to line: inout [UInt8]) {
        Timestamp.append(nanoseconds: record.timestamp, offsetSeconds: offset, fractionDigits: 6, separator: " ", zoneColon: false, to: &line)
        line.append(contentsOf: "  ".utf8)
        appendText(hostName, to: &line)
        line.append(UInt8(ascii: " "))
        appendText(record.process ?? "", to: &line)
        line.append(UInt8(ascii: "["))
        line.append(contentsOf: String(record.processID ?? 0).utf8)
        line.append(contentsOf: "]: ".utf8)
        if colored, record.messageType != .default {
            appendColored("<\(record.messageType.name)>", record, to: &line)
            line.append(UInt8(ascii: " "))
        }
        appendSenderAndSubsystem(record, to: &line)
        appendText(record.eventMessage, message: true, to: &line)
        line.append(UInt8(ascii: "\n"))
    }

    /// `(sender) [subsystem:category] `, each part only when the record has it.
    private func appendSenderAndSubsystem(_ record: LogRecord, to line: inout [UInt8]) {
        if let sender = record.sender {
            line.append(UInt8(ascii: "("))
            appendText(sender, to: &line)
            line.append(contentsOf: ") ".utf8)
        }
        if let subsystem = record.subsystem {
            appendSubsystem(subsystem, record.category, to: &line)
            line.append(UInt8(ascii: " "))
        }
    }

    private func appendSubsystem(_ subsystem: String, _ category: String?, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "["))
        appendText(subsystem, to: &line)
        if let category {
            line.append(UInt8(ascii: ":"))
            appendText(category, to: &line)
        }
        line.append(UInt8(ascii: "]"))
    }

    /// The Type column: the level for log events, the event kind otherwise.
    func typeName(_ record: LogRecord) -> String {
        switch record.eventType {
        case .logEvent: record.messageType.name
        case .activityCreateEvent, .activityTransitionEvent: "Activity"
        case .signpostEvent: "Signpost"
        case .stateEvent: "State"
        case .lossEvent: "Loss"
        case .traceEvent: "Trace"
        case .timesyncEvent: "Timesync"
        case .userActionEvent: "Action"
        }
    }

    /// The two-letter level of the compact style.
    func compactCode(_ record: LogRecord) -> String {
        switch record.eventType {
        case .logEvent:
            switch record.messageType {
            case .default: "Df"
            case .info: "I "
            case .debug: "Db"
            case .error: "E "
            case .fault: "F "
            }
        case .activityCreateEvent, .activityTransitionEvent: "A "
        case .signpostEvent: "S "
        default: "  "
        }
    }

    private func appendColored(_ text: String, _ record: LogRecord, to line: inout [UInt8]) {
        guard colored, let color = color(record.messageType) else {
            line.append(contentsOf: text.utf8)
            return
        }
        line.append(contentsOf: color.utf8)
        line.append(contentsOf: text.utf8)
        line.append(contentsOf: "\u{1B}[0m".utf8)
    }

    /// ANSI colours by level: faults and errors stand out, debug recedes.
    private func color(_ type: MessageType) -> String? {
        switch type {
        case .fault: "\u{1B}[1;31m"
        case .error: "\u{1B}[31m"
        case .info: "\u{1B}[36m"
        case .debug: "\u{1B}[2m"
        case .default: nil
        }
    }

    private func hex(_ value: Int64) -> String {
        "0x" + String(UInt64(bitPattern: value), radix: 16)
    }

    private func appendPadded(_ text: String, width: Int, to line: inout [UInt8]) {
        line.append(contentsOf: text.utf8)
        appendSpaces(width - text.utf8.count + 1, to: &line)
    }

    private func appendSpaces(_ count: Int, to line: inout [UInt8]) {
        for _ in 0..<max(1, count) { line.append(UInt8(ascii: " ")) }
    }
}
