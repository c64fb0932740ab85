import DiagCommandLine
import DiagModel

/// The time window a command reads, [start, end): nanoseconds since 1970, open where nil.
///
/// The one rule every command keeps (`show`, `stats`, `export`, `signposts`, `patterns`,
/// `diff`, `fleet`, `collect`, `feedback`): `--end` is exclusive, so an end at or before the
/// start is a window that holds nothing, refused as bad usage (64) rather than answered with
/// nothing. Before, `collect` refused an end equal to the start while `show` read it and printed
/// nothing.
struct TimeWindow: Equatable {
    var start: Int64?
    var end: Int64?

    /// The window, once the rule holds. `startName` names what set the start in the message:
    /// `--start`, or `--last` when it was counted back.
    static func checked(start: Int64?, end: Int64?, startName: String = "--start") throws -> TimeWindow {
        if let start, let end, end <= start {
            throw ValidationError(
                "--end (\(Timestamp.format(nanoseconds: end))) must come after \(startName) (\(Timestamp.format(nanoseconds: start))): "
                    + "the window runs from its start up to, not including, its end, so it would hold nothing")
        }
        return TimeWindow(start: start, end: end)
    }
}
