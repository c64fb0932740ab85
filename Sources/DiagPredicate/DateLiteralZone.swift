import DiagModel

/// The zone a date literal without its own zone is read in (`timestamp > "2026-12-01 18:17:22"`):
/// the same as `--start`/`--end`, so that every time a user types means one thing. The offset is
/// looked up at the instant, daylight saving included. UTC unless the caller says otherwise.
public struct DateLiteralZone: Sendable {
    /// Seconds east of UTC at an instant (nanoseconds since the epoch).
    let offsetSeconds: @Sendable (Int64) -> Int

    public init(offsetSeconds: @escaping @Sendable (Int64) -> Int) {
        self.offsetSeconds = offsetSeconds
    }

    public static let utc = DateLiteralZone { _ in 0 }

    /// The instant `text` names, read in this zone unless it carries its own (`Z`, `±HHMM`).
    func instant(_ text: String) -> Int64? {
        guard let asUTC = Timestamp.parse(text, defaultOffsetSeconds: 0) else { return nil }
        // A text with its own zone reads the same whatever the default; one without moves with it.
        if Timestamp.parse(text, defaultOffsetSeconds: 60) == asUTC { return asUTC }
        let guess = asUTC - Int64(offsetSeconds(asUTC)) * Timestamp.nanosecondsPerSecond
        return asUTC - Int64(offsetSeconds(guess)) * Timestamp.nanosecondsPerSecond
    }
}
