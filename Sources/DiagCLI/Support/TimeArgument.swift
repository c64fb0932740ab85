import DiagCommandLine
import DiagModel
import DiagOutput
import Foundation

/// The times `--start`, `--end` and `--last` accept.
enum TimeArgument {
    static let accepted = "YYYY-MM-DD, YYYY-MM-DD HH:MM[:SS[.fraction]] (optionally followed by Z or ±HHMM), or @UNIXTIME"

    /// An instant in nanoseconds since the epoch. A time without a zone is read in `zone`.
    static func instant(_ text: String, option: String, zone: DisplayZone) throws -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("@") {
            guard let seconds = Double(trimmed.dropFirst()), seconds.isFinite, abs(seconds) < 9.2e9 else {
                throw ValidationError("The value '\(text)' is invalid for '\(option)': after @ comes a Unix time in seconds, like @1795945201")
            }
            return Int64((seconds * 1e9).rounded())
        }
        guard let utc = Timestamp.parse(trimmed, defaultOffsetSeconds: 0) else {
            throw ValidationError("The value '\(text)' is invalid for '\(option)'; accepted: \(accepted)")
        }
        if hasExplicitZone(trimmed) { return utc }
        // Read the wall-clock time in the display zone: the offset that holds at that instant.
        var zone = zone
        let guess = utc - Int64(zone.offsetSeconds(at: utc)) * Timestamp.nanosecondsPerSecond
        return utc - Int64(zone.offsetSeconds(at: guess)) * Timestamp.nanosecondsPerSecond
    }

    /// `--last 30s|5m|2h|1d` (a bare number is seconds), in nanoseconds.
    static func duration(_ text: String) throws -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var digits = Substring(trimmed)
        var unit: Int64 = 1
        if let last = trimmed.last, let scale = units[Character(last.lowercased())] {
            unit = scale
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let amount = Int64(digits), amount > 0,
              amount <= Int64.max / 1_000_000_000 / unit
        else {
            throw ValidationError("The value '\(text)' is invalid for '--last <duration>'; accepted: a positive number of seconds, or followed by s, m, h or d, like 45, 30s, 5m, 2h, 1d")
        }
        return amount * unit * Timestamp.nanosecondsPerSecond
    }

    /// Whether the text ends in `Z` or a `±HH[MM]` zone after the time of day.
    private static func hasExplicitZone(_ text: String) -> Bool {
        if text.hasSuffix("Z") || text.hasSuffix("z") { return true }
        guard text.count > 10 else { return false }
        let time = text.dropFirst(10)
        return time.contains("+") || time.contains("-")
    }
}
