/// The log file formats `diag import` and `diag show FILE` read, told apart from their content.
public enum ImportFormat: String, CaseIterable, Sendable {
    /// One JSON record per line: ours (`diag show --style ndjson`) or Apple's `log show --style ndjson`.
    case ndjson
    /// Apple's `log show --style json`: one JSON array of records, read element by element.
    case appleJSON = "json"
    /// BSD syslog lines, `Jul  1 09:00:55 host process[pid]: message` (`/var/log/syslog`, `system.log`).
    case syslog
    /// `journalctl -o json`: one journal entry per line.
    case journalJSON = "journal"
    /// Android `logcat -v threadtime`: `03-17 16:13:38.811  1702  2395 D Tag: message`.
    case logcat

    /// What users type for `--format`: `ndjson`, `json`, `syslog`, `journal`, `logcat`.
    public var name: String { rawValue }

    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// How each format is recognised, for error messages and help.
    public var summary: String {
        switch self {
        case .ndjson: "NDJSON records (diag or `log show --style ndjson`)"
        case .appleJSON: "a JSON array of records (`log show --style json`)"
        case .syslog: "BSD syslog lines (`Jul  1 09:00:55 host process[pid]: message`)"
        case .journalJSON: "`journalctl -o json` entries"
        case .logcat: "Android logcat threadtime lines (`03-17 16:13:38.811  1702  2395 D Tag: message`)"
        }
    }

    /// How many lines that fit no format may come before the first that does: a file that
    /// starts with a stray line or two (a banner, a cut line) is still read, and those lines are
    /// reported as the reader meets them, as lines in the middle are.
    public static let unrecognisedLinesTolerated = 8

    /// Tells the format from the first bytes of a file (a few KiB are plenty: the first line that
    /// fits a format decides, among the first few). Returns nil when the bytes hold nothing but
    /// whitespace; throws `ImportError.unknownFormat` quoting the first line when none fits.
    public static func detect(_ prefix: UnsafeBufferPointer<UInt8>, source: String = "input") throws(ImportError) -> ImportFormat? {
        var lines = PrefixLines(prefix)
        var firstUnknown: Slice<UnsafeBufferPointer<UInt8>>?
        var unknown = 0
        while let line = lines.next() {
            let trimmed = line.trimmingBlanks()
            if trimmed.isEmpty || LogcatLineParser.isBufferBanner(trimmed) { continue }
            if let format = format(ofLine: trimmed) { return format }
            if firstUnknown == nil { firstUnknown = trimmed }
            unknown += 1
            if unknown >= unrecognisedLinesTolerated { break }
        }
        if let firstUnknown {
            throw ImportError.unknownFormat(source: source, firstLine: String(decoding: firstUnknown.prefix(120), as: UTF8.self))
        }
        return nil
    }

    /// The format one non-blank line belongs to, nil when it fits none.
    private static func format(ofLine trimmed: Slice<UnsafeBufferPointer<UInt8>>) -> ImportFormat? {
        switch trimmed[trimmed.startIndex] {
        case UInt8(ascii: "["): return .appleJSON
        case UInt8(ascii: "{"):
            let journalKeys = ["\"__REALTIME_TIMESTAMP\"", "\"__CURSOR\"", "\"_BOOT_ID\""]
            return journalKeys.contains { trimmed.contains(utf8: $0) } ? .journalJSON : .ndjson
        default:
            if LogcatLineParser.looksLikeHeader(trimmed) { return .logcat }
            if SyslogLineParser.looksLikeHeader(trimmed) { return .syslog }
            return nil
        }
    }

    public static func detect(_ prefix: [UInt8], source: String = "input") throws(ImportError) -> ImportFormat? {
        try prefix.withUnsafeBufferPointer { (buffer) throws(ImportError) in try detect(buffer, source: source) }
    }
}

/// The lines of a prefix, the last one possibly cut short.
struct PrefixLines: IteratorProtocol {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A UTF-8 byte-order mark is not content.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    mutating func next() -> Slice<UnsafeBufferPointer<UInt8>>? {
        guard position < bytes.count else { return nil }
        let start = position
        while position < bytes.count, bytes[position] != 0x0A { position += 1 }
        let line = bytes[start..<position]
        position += 1
        return line
    }
}
