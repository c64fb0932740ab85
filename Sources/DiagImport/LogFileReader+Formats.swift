import DiagModel

extension LogFileReader {
    func readJSONLines(record: (LogRecord) throws -> Void, issue: (ImportIssue) throws -> Void) throws {
        var lines = LineReader(stream: stream, maxLineLength: options.maxLineLength)
        while let (number, line) = try lines.next() {
            switch line {
            case .tooLong(let length):
                try issue(ImportIssue(file: source, line: number, reason: tooLong(length)))
            case .text(let bytes):
                if Self.isBlank(bytes) { continue }
                switch JSONRecordMapping.decode(bytes) {
                case .record(let decoded): try record(decoded)
                case .trailer: continue
                case .refused(let column, _, let reason): try issue(ImportIssue(file: source, line: number, column: column, reason: reason))
                }
            }
        }
    }

    func readJournalLines(record: (LogRecord) throws -> Void, issue: (ImportIssue) throws -> Void) throws {
        var lines = LineReader(stream: stream, maxLineLength: options.maxLineLength)
        while let (number, line) = try lines.next() {
            switch line {
            case .tooLong(let length):
                try issue(ImportIssue(file: source, line: number, reason: tooLong(length)))
            case .text(let bytes):
                if Self.isBlank(bytes) { continue }
                let entry: [String: JSONValue]
                do throws(JSONReaderError) {
                    entry = try JSONReader.parseObject(bytes)
                } catch {
                    try issue(ImportIssue(file: source, line: number, column: error.column, reason: error.reason))
                    continue
                }
                switch JournalEntryMapping.record(from: entry) {
                case .record(let decoded): try record(decoded)
                case .refused(let reason): try issue(ImportIssue(file: source, line: number, reason: reason))
                }
            }
        }
    }

    func readJSONArray(record: (LogRecord) throws -> Void, issue: (ImportIssue) throws -> Void) throws {
        var elements = JSONArrayElementReader(stream: stream, maxElementLength: options.maxLineLength)
        while let element = try elements.next() {
            switch element {
            case .bytes(let bytes, let line):
                switch JSONRecordMapping.decode(bytes) {
                case .record(let decoded): try record(decoded)
                case .trailer: continue
                case .refused(let column, let lineInElement, let reason):
                    try issue(ImportIssue(file: source, line: line + lineInElement - 1, column: lineInElement > 1 ? column : nil, reason: reason))
                }
            case .tooLong(let line, let length):
                try issue(ImportIssue(file: source, line: line, reason: "an array element of \(length) bytes is longer than the limit of \(options.maxLineLength) bytes; skipped"))
            case .malformed(let line, let reason):
                try issue(ImportIssue(file: source, line: line, reason: reason + "; reading stopped"))
            }
        }
    }

    func readSyslog(record: (LogRecord) throws -> Void, issue: (ImportIssue) throws -> Void) throws {
        var parser = SyslogLineParser(calendar: WallClock(year: year, timeZone: options.timeZone, notAfter: latestTime))
        var lines = LineReader(stream: stream, maxLineLength: options.maxLineLength)
        // A record is held until the next line shows whether continuation lines follow it.
        var pending: LogRecord?
        while let (number, line) = try lines.next() {
            guard case .text(let bytes) = line else {
                if case .tooLong(let length) = line { try issue(ImportIssue(file: source, line: number, reason: tooLong(length))) }
                continue
            }
            if Self.isBlank(bytes) { continue }
            switch parser.parse(bytes) {
            case .record(let parsed, let invalidColumn):
                if let held = pending { try record(held) }
                pending = parsed
                if let invalidColumn { try issue(repaired(number, invalidColumn)) }
            case .refused(let column, let reason):
                try issue(ImportIssue(file: source, line: number, column: column, reason: reason))
            case .notSyslog:
                if pending != nil, bytes[0] == 0x20 || bytes[0] == 0x09 {
                    let (text, invalidColumn) = decodeText(bytes)
                    pending?.eventMessage += "\n" + text
                    if let invalidColumn { try issue(repaired(number, invalidColumn)) }
                } else {
                    try issue(ImportIssue(file: source, line: number, column: 1, reason: "not a syslog line: expected `Mmm dd HH:MM:SS host process[pid]: message` (or an indented continuation line), found \"\(excerpt(bytes))\""))
                }
            }
        }
        if let held = pending { try record(held) }
    }

    func readLogcat(record: (LogRecord) throws -> Void, issue: (ImportIssue) throws -> Void) throws {
        var parser = LogcatLineParser(calendar: WallClock(year: year, timeZone: options.timeZone, notAfter: latestTime))
        var lines = LineReader(stream: stream, maxLineLength: options.maxLineLength)
        while let (number, line) = try lines.next() {
            guard case .text(let bytes) = line else {
                if case .tooLong(let length) = line { try issue(ImportIssue(file: source, line: number, reason: tooLong(length))) }
                continue
            }
            if Self.isBlank(bytes) || LogcatLineParser.isBufferBanner(bytes[...]) { continue }
            switch parser.parse(bytes) {
            case .record(let parsed, let invalidColumn):
                try record(parsed)
                if let invalidColumn { try issue(repaired(number, invalidColumn)) }
            case .refused(let column, let reason):
                try issue(ImportIssue(file: source, line: number, column: column, reason: reason))
            case .notLogcat:
                try issue(ImportIssue(file: source, line: number, column: 1, reason: "not a logcat threadtime line: expected `MM-DD HH:MM:SS.mmm  pid  tid L Tag: message`, found \"\(excerpt(bytes))\""))
            }
        }
    }

    private func repaired(_ line: Int, _ column: Int) -> ImportIssue {
        ImportIssue(file: source, line: line, column: column, reason: "invalid UTF-8, replaced with U+FFFD; the record is kept")
    }

    private func excerpt(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(60), as: UTF8.self)
        let printable = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "·" : Character($0) })
        return bytes.count > 60 ? printable + "…" : printable
    }
}
