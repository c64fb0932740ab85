import DiagModel

/// Turns the events of one tracev3 file into records with Apple's field names, resolving
/// format strings and image paths through `ImageStrings` and dates through timesync.
struct AppleRecordBuilder {
    let file: TraceV3File
    let strings: ImageStrings
    let timesync: TimesyncDatabase
    /// The file's boot, once: every record carries it.
    let bootUUID: JSONValue

    init(file: TraceV3File, strings: ImageStrings, timesync: TimesyncDatabase) {
        self.file = file
        self.strings = strings
        self.timesync = timesync
        bootUUID = .string(file.header.bootUUID.description)
    }

    /// Nanoseconds since the epoch: timesync when it knows the boot, else the file's header.
    func wallClock(_ continuousTime: UInt64) -> Int64 {
        let header = file.header
        if let time = timesync.wallClock(continuousTime: continuousTime, boot: header.bootUUID) { return time }
        let base = TimesyncDatabase.Sync(continuousTime: header.continuousTime, wallClock: header.wallClockSeconds &* 1_000_000_000)
        return TimesyncDatabase.convert(continuousTime, from: base, numerator: header.timebaseNumerator, denominator: header.timebaseDenominator)
    }

    /// Every event as a record, sorted by time (a file keeps them by process, not by time).
    func records() -> [LogRecord] {
        var records = file.events.map(record)
        records.sort { $0.timestamp < $1.timestamp }
        return records
    }

    func record(_ event: TraceEvent) -> LogRecord {
        var record = LogRecord(timestamp: wallClock(event.continuousTime), eventMessage: "")
        var metadata: [String: JSONValue] = [
            "bootUUID": bootUUID,
            "machTimestamp": .int(Int64(bitPattern: event.continuousTime)),
        ]
        if let process = event.process {
            record.processID = Int64(process.pid)
            record.userID = Int64(process.effectiveUserID)
            if let main = process.mainUUID {
                metadata["processImageUUID"] = .string(main.description)
                if case .success(let text) = strings.uuidText(main), !text.imagePath.isEmpty {
                    record.processImagePath = text.imagePath
                    record.process = Self.lastComponent(text.imagePath)
                }
            }
        }
        switch event.kind {
        case .firehose(let tracepoint):
            fill(&record, &metadata, tracepoint, event)
        case .stateDump(let dump):
            record.eventType = .stateEvent
            record.activityIdentifier = Int64(dump.activityID)
            metadata["senderImageUUID"] = .string(dump.senderUUID.description)
            if case .success(let text) = strings.uuidText(dump.senderUUID), !text.imagePath.isEmpty {
                record.senderImagePath = text.imagePath
                record.sender = Self.lastComponent(text.imagePath)
            }
            record.eventMessage = StateDumpText.describe(dump)
            record.traceID = 0
        case .simpleDump(let dump):
            record.messageType = Self.messageType(dump.logType)
            record.threadID = Int64(bitPattern: dump.threadID)
            record.subsystem = dump.subsystem.isEmpty ? nil : dump.subsystem
            record.eventMessage = dump.message
            record.traceID = 0
            metadata["senderImageUUID"] = .string(dump.senderUUID.description)
        }
        record.metadata = metadata
        return record
    }

    private func fill(_ record: inout LogRecord, _ metadata: inout [String: JSONValue], _ tracepoint: FirehoseTracepoint, _ event: TraceEvent) {
        record.threadID = Int64(bitPattern: tracepoint.threadID)
        record.traceID = Int64(bitPattern: tracepoint.traceID)
        if let current = tracepoint.currentActivity { record.activityIdentifier = Int64(current) }
        if let subsystemID = tracepoint.subsystemID, let names = event.process?.subsystems[subsystemID] {
            record.subsystem = names.subsystem
            record.category = names.category
        }
        if let backtrace = tracepoint.backtrace { metadata["backtrace"] = backtrace.json }
        var values = tracepoint.values
        var oversizeMissing = false
        if let reference = tracepoint.oversizeReference, values.isEmpty {
            let found = file.oversize[OversizeKey(first: event.processKey.first, second: event.processKey.second, reference: UInt32(reference))]
            values = found ?? []
            oversizeMissing = found == nil
        }
        let located = FormatLocator(strings: strings, process: event.process).locate(tracepoint, offset: tracepoint.formatOffset)
        if let image = located.image {
            record.senderImagePath = image.path
            record.sender = Self.lastComponent(image.path)
            metadata["senderImageUUID"] = .string(image.uuid.description)
        } else if let uuid = located.imageUUID {
            metadata["senderImageUUID"] = .string(uuid.description)
        }
        if let offset = located.senderOffset { metadata["senderProgramCounter"] = .int(Int64(bitPattern: offset)) }
        record.formatString = located.format
        switch tracepoint.recordType {
        case .log:
            record.eventType = .logEvent
            record.messageType = Self.messageType(tracepoint.logType)
        case .trace:
            record.eventType = .traceEvent
        case .activity:
            record.eventType = tracepoint.logType == 0x03 ? .userActionEvent : .activityCreateEvent
            record.activityIdentifier = tracepoint.newActivity.map(Int64.init) ?? record.activityIdentifier
            record.parentActivityIdentifier = (tracepoint.otherActivity ?? tracepoint.currentActivity).map(Int64.init)
            if let pid = tracepoint.uniquePID { metadata["creatorProcessUniqueIdentifier"] = .int(Int64(bitPattern: pid)) }
        case .signpost:
            record.eventType = .signpostEvent
            record.signpostID = tracepoint.signpostID.map { Int64(bitPattern: $0) }
            record.signpostType = ["event", "begin", "end"][safe: Int(tracepoint.logType & 0x3)] ?? "event"
            record.signpostScope = ["thread", "process", "system"][safe: Int(tracepoint.logType >> 6) - 1]
            if let name = tracepoint.nameReference {
                record.signpostName = FormatLocator(strings: strings, process: event.process).locate(tracepoint, offset: name).format
            }
        case .loss:
            record.eventType = .lossEvent
            if let loss = tracepoint.loss {
                record.eventMessage = "lost \(loss.count) unreliable message\(loss.count == 1 ? "" : "s") from \(Timestamp.format(nanoseconds: wallClock(loss.start))) to \(Timestamp.format(nanoseconds: wallClock(loss.end)))"
            }
            return
        }
        if let format = located.format {
            record.eventMessage = MessageRenderer.render(format: format, values: values)
        } else if oversizeMissing {
            // Neither the string nor the values (their oversize entry is in no chunk of this
            // file, e.g. in an earlier file of the archive): log's own words for it.
            record.eventMessage = "<decode: missing data>"
        } else {
            record.eventMessage = Self.missingFormat(located.missing ?? "format string not found", values: values)
        }
    }

    /// The message of a record whose format string is missing: what is missing and the values.
    static func missingFormat(_ reason: String, values: [FirehoseValue]) -> String {
        var message = "<decode: \(reason)>"
        let shown = values.filter { if case .count = $0 { return false } else { return true } }
        if !shown.isEmpty {
            let spec = FormatSpecifier(conversion: "@")
            message += " values: " + shown.map { value -> String in
                switch value {
                case .scalar(let bits, let count): ValueFormatter.formatScalar(bits, byteCount: count, FormatSpecifier())
                case .string(let text): "\"\(text ?? "(null)")\""
                default: ValueFormatter.format(value, as: spec)
                }
            }.joined(separator: ", ")
        }
        return message
    }

    static func messageType(_ logType: UInt8) -> MessageType {
        switch logType {
        case 0x01: .info
        case 0x02: .debug
        case 0x10: .error
        case 0x11: .fault
        default: .default
        }
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
