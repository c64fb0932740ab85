import DiagModel
import Foundation

/// The time zone timestamps are shown in: a fixed offset (`+0200`, `-0530`, `Z`, `UTC`) or a
/// named zone (`Europe/Paris`), whose offset is looked up per timestamp, daylight saving included.
///
/// The default is the zone the C library would use, as `log` and journalctl show: `$TZ` when it
/// names a zone, else the system's zone (`/etc/localtime`), else UTC (SystemZone.swift).
public struct DisplayZone: Sendable {
    public let name: String
    private let zone: TimeZone?
    private let fixedOffset: Int
    // The offset of the last named-zone lookup and the interval it holds for: queries come in time
    // order, so one lookup serves until the next transition.
    private var cachedOffset = 0
    private var cachedFrom: Int64 = .max
    private var cachedUntil: Int64 = .min

    public static let utc = DisplayZone(fixedOffset: 0, name: "UTC")

    private init(fixedOffset: Int, name: String) {
        self.fixedOffset = fixedOffset
        self.name = name
        zone = nil
    }

    private init(zone: TimeZone) {
        self.zone = zone
        name = zone.identifier
        fixedOffset = 0
    }

    /// The zone as Foundation's `TimeZone`, for readers of wall-clock times (syslog, logcat).
    public var timeZone: TimeZone {
        zone ?? TimeZone(secondsFromGMT: fixedOffset) ?? TimeZone(secondsFromGMT: 0)!
    }

    /// `UTC`, `Z`, `±HH`, `±HHMM`, `±HH:MM`, or a zone name from the system's database; nil otherwise.
    public init?(parsing text: String) {
        // Trimmed by hand: Foundation's `trimmingCharacters(in: .whitespaces)` builds its
        // character set first, a quarter of a millisecond of every `diag` run with `$TZ` set. And
        // on a Substring, not through `reversed()` and `drop(while:)`: their nested generic types
        // were made at run time, each looking its conformances up through every conformance
        // record of the binary, 0.3 ms of every run (perf of `diag show` over an empty store).
        var slice = Substring(text)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        let trimmed = String(slice)
        let lowered = trimmed.lowercased()
        if lowered == "utc" || lowered == "z" || lowered == "gmt" {
            self = .utc
            return
        }
        if Self.isUTCName(trimmed) {
            self.init(fixedOffset: 0, name: trimmed)
            return
        }
        if let sign = trimmed.first, sign == "+" || sign == "-" {
            let digits = trimmed.dropFirst().replacingOccurrences(of: ":", with: "")
            guard digits.count == 2 || digits.count == 4, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0 else { return nil }
            let hours = digits.count == 2 ? value : value / 100
            let minutes = digits.count == 2 ? 0 : value % 100
            guard hours <= 18, minutes < 60 else { return nil }
            self.init(fixedOffset: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60), name: trimmed)
            return
        }
        guard !trimmed.isEmpty, let zone = TimeZone(identifier: trimmed) else { return nil }
        self.init(zone: zone)
    }

    /// Whether `name` is one of the zone database's names of UTC itself (`Etc/UTC`, `UCT`,
    /// `Etc/GMT+0`, `Zulu`…: offset 0, no transition, ever), which a fixed offset shows the same
    /// without asking ICU. `/etc/localtime` links to `Etc/UTC` on most servers and containers, and
    /// ICU's lookups of the name were 0.4 ms of every `diag` run there without `$TZ` (perf of
    /// `diag show` over a 10M-record store, 2026-12-05).
    public static func isUTCName(_ name: String) -> Bool {
        switch name {
        case "Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0",
             "Etc/Greenwich", "UTC", "UCT", "Universal", "Zulu", "GMT", "GMT0", "GMT+0", "GMT-0", "Greenwich":
            return true
        default:
            return false
        }
    }

    /// `$TZ` (a leading `:` allowed) when it parses, else the system's zone. Read with `getenv`:
    /// building `ProcessInfo.environment`, every variable in a dictionary, took 0.2 ms of each `diag` run.
    public static func fromEnvironment() -> DisplayZone {
        fromTZ(getenv("TZ").map { String(cString: $0) }, system: { system() })
    }

    /// The same, `environment` standing in for the process's and `localtime` for `/etc/localtime`.
    public static func fromEnvironment(_ environment: [String: String], localtime: String = SystemZone.localtimePath) -> DisplayZone {
        fromTZ(environment["TZ"], system: { system(localtime: localtime) })
    }

    private static func fromTZ(_ text: String?, system: () -> DisplayZone) -> DisplayZone {
        // As the C library: no TZ is the system's zone, an empty one is UTC.
        guard var value = text else { return system() }
        guard !value.isEmpty else { return .utc }
        if value.hasPrefix(":") { value.removeFirst() }
        return DisplayZone(parsing: value) ?? .utc
    }

    /// Seconds east of UTC at the given instant.
    public mutating func offsetSeconds(at nanoseconds: Int64) -> Int {
        guard let zone else { return fixedOffset }
        if nanoseconds >= cachedFrom, nanoseconds < cachedUntil { return cachedOffset }
        let date = Date(timeIntervalSince1970: Double(nanoseconds) / 1e9)
        cachedOffset = zone.secondsFromGMT(for: date)
        // Hold the offset until the next transition, or a day when the zone has none ahead.
        let next = zone.nextDaylightSavingTimeTransition(after: date)
        let until = next.map { Int64($0.timeIntervalSince1970 * 1e9) } ?? nanoseconds + 86_400 * Timestamp.nanosecondsPerSecond
        cachedFrom = nanoseconds
        cachedUntil = max(until, nanoseconds + 1)
        return cachedOffset
    }
}
