/// The output styles of `log show --style`.
public enum OutputStyle: String, CaseIterable, Sendable {
    /// Columns with a header and a closing count per level.
    case `default`
    /// One short line per record: millisecond time, a two-letter level, `process[pid:tid]`.
    case compact
    /// BSD syslog-like lines with the host name.
    case syslog
    /// One pretty-printed JSON array, as `log show --style json`.
    case json
    /// One JSON object per line.
    case ndjson
}

/// When levels are coloured: `auto` colours only a terminal.
public enum ColorMode: String, CaseIterable, Sendable {
    case auto, always, none

    public func enabled(isTerminal: Bool) -> Bool {
        switch self {
        case .auto: isTerminal
        case .always: true
        case .none: false
        }
    }
}
