import DiagModel

/// Writes a record as one row of `COPY … FROM STDIN` text format, columns in
/// `FleetSchema.recordColumns` order: tab-separated, `\N` for NULL, backslash escapes.
struct CopyRowEncoder {
    /// A text field PostgreSQL cannot store: it holds U+0000.
    struct NulCharacter: Error {
        var field: String
    }

    static func append(
        _ record: LogRecord, bundleID: Int64, seq: Int64, host: String, to buffer: inout [UInt8]
    ) throws(NulCharacter) {
        func integer(_ value: Int64?) {
            if let value { buffer.append(contentsOf: String(value).utf8) } else { buffer.append(contentsOf: [0x5C, 0x4E]) }
            buffer.append(0x09)
        }
        func text(_ value: String?, _ field: String) throws(NulCharacter) {
            guard let value else { buffer.append(contentsOf: [0x5C, 0x4E, 0x09]); return }
            for byte in value.utf8 {
                switch byte {
                case 0: throw NulCharacter(field: field)
                case 0x5C: buffer.append(contentsOf: [0x5C, 0x5C])
                case 0x09: buffer.append(contentsOf: [0x5C, 0x74])
                case 0x0A: buffer.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: buffer.append(contentsOf: [0x5C, 0x72])
                default: buffer.append(byte)
                }
            }
            buffer.append(0x09)
        }
        integer(bundleID)
        integer(seq)
        try text(host, "host")
        integer(record.timestamp)
        integer(record.receiptTime)
        integer(Int64(record.messageType.rawValue))
        integer(Int64(record.eventType.rawValue))
        try text(record.process, "process")
        integer(record.processID)
        try text(record.processImagePath, "processImagePath")
        integer(record.userID)
        try text(record.sender, "sender")
        try text(record.senderImagePath, "senderImagePath")
        try text(record.subsystem, "subsystem")
        try text(record.category, "category")
        integer(record.threadID)
        integer(record.activityIdentifier)
        integer(record.parentActivityIdentifier)
        integer(record.traceID)
        try text(record.eventMessage, "eventMessage")
        try text(TextFolding.fold(record.eventMessage, caseInsensitive: true, diacriticInsensitive: true), "eventMessage")
        try text(record.formatString, "formatString")
        integer(record.signpostID)
        try text(record.signpostName, "signpostName")
        try text(record.signpostType, "signpostType")
        if let metadata = record.metadata {
            // PostgreSQL's ->> cannot return a string holding U+0000: refused like text fields.
            guard !metadata.contains(where: { $0.key.utf8.contains(0) || holdsNul($0.value) }) else {
                throw NulCharacter(field: "metadata")
            }
            var writer = JSONWriter()
            writer.append(.object(metadata))
            // JSON escapes U+0000 as \u0000: the text itself never holds a NUL.
            try text(String(decoding: writer.bytes, as: UTF8.self), "metadata")
        } else {
            buffer.append(contentsOf: [0x5C, 0x4E, 0x09])
        }
        try text(record.signpostScope, "signpostScope")
        buffer[buffer.count - 1] = 0x0A
    }

    static func holdsNul(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): text.utf8.contains(0)
        case .array(let elements): elements.contains(where: holdsNul)
        case .object(let members): members.contains { $0.key.utf8.contains(0) || holdsNul($0.value) }
        default: false
        }
    }
}
