import DiagModel

/// Syslog's PRI split into facility and severity (RFC 5424 §6.2.1), and the level each
/// severity becomes.
///
/// The mapping (README "Logging from other languages"): emerg, alert, crit → Fault; err →
/// Error; warning, notice → Default; info → Info; debug → Debug. The severity's name is kept in
/// `metadata.syslog.severity`, since warning and notice share a level.
struct SyslogPriority: Sendable, Hashable {
    let facility: Int
    let severity: Int

    /// PRI is `facility * 8 + severity`; RFC 5424 allows 0…191.
    init?(value: Int) {
        guard (0...191).contains(value) else { return nil }
        facility = value / 8
        severity = value % 8
    }

    /// What a message without `<PRI>` gets: user.notice, as syslogd and journald do.
    static let missing = SyslogPriority(value: 13)!

    var messageType: MessageType {
        switch severity {
        case 0, 1, 2: .fault
        case 3: .error
        case 4, 5: .default
        case 6: .info
        default: .debug
        }
    }

    static let severityNames = ["emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"]
    static let facilityNames = [
        "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp",
        "ntp", "security", "console", "solaris-cron", "local0", "local1", "local2", "local3", "local4", "local5",
        "local6", "local7",
    ]

    var severityName: String { Self.severityNames[severity] }
    var facilityName: String { Self.facilityNames[facility] }
}
