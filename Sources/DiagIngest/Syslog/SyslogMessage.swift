import DiagModel

/// One syslog message as a sender wrote it, before it becomes a record: RFC 5424
/// (`<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID SD MSG`) or RFC 3164 as glibc's
/// `syslog()`, `logger` and Python's `SysLogHandler` send it (`<PRI>[Mmm dd hh:mm:ss ][HOST ]TAG[PID]: MSG`,
/// where Python writes no time and its tag is whatever the formatter put first).
struct SyslogMessage: Sendable {
    enum Format: String, Sendable { case rfc3164, rfc5424 }

    struct Element: Sendable, Hashable {
        var id: String
        var parameters: [(name: String, value: String)]
        static func == (lhs: Element, rhs: Element) -> Bool {
            lhs.id == rhs.id && lhs.parameters.elementsEqual(rhs.parameters) { $0 == $1 }
        }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    var format: Format
    var priority: SyslogPriority
    /// Only RFC 5424 (and an RFC 3339 time in an RFC 3164 header) says when, with a zone; the
    /// BSD header's `Mmm dd hh:mm:ss` has neither year nor zone, so the receipt time is used.
    var timestamp: Int64?
    var hostname: String?
    /// APP-NAME, or the tag's name: what the sender claims to be (kept as `sender`).
    var appName: String?
    /// PROCID, or the tag's `[pid]`: claimed, kept in metadata, never trusted as the process ID.
    var processID: String?
    var messageID: String?
    var structuredData: [Element] = []
    var message: String
}

/// Why a syslog message was refused, with where in it.
struct SyslogParseError: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ description: String) { self.description = description }
}
