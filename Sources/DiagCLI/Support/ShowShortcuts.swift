import DiagModel

/// journalctl's everyday shortcuts on `diag show`, mapped to what diag already has.
enum GrepArgument {
    /// `--grep PATTERN` is `eventMessage MATCHES[c] "(?s).*(?:PATTERN).*"`, ANDed with the
    /// predicate: MATCHES takes the whole message, and grep finds the pattern anywhere in it (on
    /// any of its lines), in any case. Backslashes and quotes are escaped so that the pattern
    /// reaches the regex engine as typed.
    static func restrict(_ predicate: String?, to pattern: String?) -> String? {
        guard let pattern else { return predicate }
        let quoted = pattern.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let condition = "eventMessage MATCHES[c] \"(?s).*(?:\(quoted)).*\""
        guard let predicate else { return condition }
        return "(\(predicate)\n) AND \(condition)"
    }
}

/// `-n/--lines N` (the last N records) and `-r/--reverse` (newest first): records are held
/// here until the query ends. `-n` keeps N at a time; `-r` alone holds every record shown.
struct RecordOrder {
    var lines: Int?
    var reverse: Bool

    var isNatural: Bool { lines == nil && !reverse }

    /// Generic so that `show --patterns` orders records together with their patterns.
    func emit<Item>(_ next: () throws -> Item?, _ write: (Item) -> Void) throws {
        if isNatural {
            while let record = try next() { write(record) }
            return
        }
        var kept: [Item] = []
        var oldest = 0
        if lines == 0 {
            while try next() != nil {}
            return
        }
        if let lines {
            // A ring of the newest `lines` records; `oldest` is where the next one overwrites.
            kept.reserveCapacity(min(lines, 65_536))
            while let record = try next() {
                if kept.count < lines {
                    kept.append(record)
                } else {
                    kept[oldest] = record
                    oldest = (oldest + 1) % lines
                }
            }
        } else {
            while let record = try next() { kept.append(record) }
        }
        let ordered = Array(kept[oldest...] + kept[..<oldest])
        if reverse {
            for record in ordered.reversed() { write(record) }
        } else {
            for record in ordered { write(record) }
        }
    }
}

/// `--source`: the record's origin in front of its message, in braces (a form no other part of
/// a line uses): the sender's image path, else the sender's name.
enum SourceLabel {
    static func labelled(_ record: LogRecord) -> LogRecord {
        guard let origin = record.senderImagePath ?? record.sender else { return record }
        var labelled = record
        labelled.eventMessage = "{\(origin)} " + record.eventMessage
        return labelled
    }
}
