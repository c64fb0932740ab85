import DiagModel
import Foundation

/// Turns the wall-clock times of syslog and logcat lines, which carry neither year nor zone,
/// into nanoseconds since the epoch: the year comes from the caller and moves on when the
/// months wrap (Dec → Jan); the zone's offset is looked up once per hour of wall time.
struct WallClock {
    private(set) var year: Int64
    private let timeZone: TimeZone
    private var previousMonth: Int?
    private var cachedHour: Int64 = .min
    private var cachedOffset: Int64 = 0

    init(year: Int, timeZone: TimeZone) {
        self.year = Int64(year)
        self.timeZone = timeZone
    }

    /// Nil for a date that does not exist (Feb 30, or Feb 29 outside leap years). A line that
    /// names its year (`explicitYear`) is read in it and leaves the running year alone.
    mutating func nanoseconds(explicitYear: Int64? = nil, month: Int, day: Int64, secondOfDay: Int64, nanoseconds: Int64) -> Int64? {
        if explicitYear == nil {
            if let previousMonth, month < previousMonth - 6 { year += 1 }
            previousMonth = month
        }
        let year = explicitYear ?? self.year
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
