import DiagCommandLine
import DiagModel
import DiagOutput
import DiagProtocol
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
        guard let seconds = QuantityParsing.seconds(text), seconds <= Int64.max / Timestamp.nanosecondsPerSecond else {
            throw ValidationError("The value '\(text)' is invalid for '--last <duration>'; accepted: \(QuantityParsing.acceptedDurations)")
        }
        return seconds * Timestamp.nanosecondsPerSecond
    }

    /// Whether the text ends in `Z` or a `±HH[MM]` zone after the time of day.
    private static func hasExplicitZone(_ text: String) -> Bool {
        if text.hasSuffix("Z") || text.hasSuffix("z") { return true }
        guard text.count > 10 else { return false }
        let time = text.dropFirst(10)
        return time.contains("+") || time.contains("-")
    }
}
