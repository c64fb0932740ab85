import DiagModel
import Foundation

/// Turns the wall-clock times of syslog and logcat lines, which carry neither year nor zone,
/// into nanoseconds since the epoch: the year comes from the caller and moves on when the
/// months wrap (Dec → Jan); the zone's offset is looked up once per hour of wall time.
///
/// A guessed year (from a file's modification time) comes with `notAfter`, that time: when the
/// first line would fall more than a day after it, the file began the year before (a log of
/// December and January, modified in January).
struct WallClock {
    private(set) var year: Int64
    private let timeZone: TimeZone
    private let notAfter: Int64?
    private var previousMonth: Int?
    private var cachedHour: Int64 = .min
    private var cachedOffset: Int64 = 0

    init(year: Int, timeZone: TimeZone, notAfter: Int64? = nil) {
        self.year = Int64(year)
        self.timeZone = timeZone
        self.notAfter = notAfter
    }

    /// Nil for a date that does not exist (Feb 30, or Feb 29 outside leap years). A line that
    /// names its year (`explicitYear`) is read in it and leaves the running year alone.
    mutating func nanoseconds(explicitYear: Int64? = nil, month: Int, day: Int64, secondOfDay: Int64, nanoseconds: Int64) -> Int64? {
        if explicitYear == nil {
            if let previousMonth, month < previousMonth - 6 { year += 1 }
            if previousMonth == nil, let notAfter,
               let first = time(year: year, month: month, day: day, secondOfDay: secondOfDay, nanoseconds: nanoseconds),
               first > notAfter + 86_400 * Timestamp.nanosecondsPerSecond
            {
                year -= 1
            }
            previousMonth = month
        }
        return time(year: explicitYear ?? year, month: month, day: day, secondOfDay: secondOfDay, nanoseconds: nanoseconds)
    }

    private mutating func time(year: Int64, month: Int, day: Int64, secondOfDay: Int64, nanoseconds: Int64) -> Int64? {
        guard (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year) else { return nil }
        let wallSeconds = Timestamp.days(year: year, month: month, day: Int(day)) * 86_400 + secondOfDay
        let hour = wallSeconds / 3600
        if hour != cachedHour {
            cachedHour = hour
            let guess = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wallSeconds)))
            cachedOffset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wallSeconds - Int64(guess)))))
        }
        return (wallSeconds - cachedOffset) * Timestamp.nanosecondsPerSecond + nanoseconds
    }
}
