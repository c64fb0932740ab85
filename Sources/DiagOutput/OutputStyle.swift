import Foundation
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

    /// `auto` colours a terminal unless `NO_COLOR` is set to anything but the empty string
    /// (no-color.org); `always`, given on the command line, still colours.
    public func enabled(isTerminal: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch self {
        case .auto: isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
        case .always: true
        case .none: false
        }
    }
}
