import DiagModel

/// The counts `log show` prints after its records in the default style.
struct LevelSummary {
    private(set) var counts = SummaryCounts()

    mutating func count(_ record: LogRecord) {
        counts.add(SummaryKind(record))
    }

    mutating func add(_ other: SummaryCounts) {
        counts.add(other)
    }

    /// The separator and two lines, with `log`'s field widths (30, 22, 20, 17, 17 characters).
    var text: String {
        let log = [
            field("Log      - Default:", counts[.default], width: 30),
            field("Info:", counts[.info], width: 22),
            field("Debug:", counts[.debug], width: 20),
            field("Error:", counts[.error], width: 17),
            field("Fault:", counts[.fault], width: 17),
        ]
        let activity = [
            field("Activity - Create:", counts[.activityCreate], width: 30),
            field("Transition:", counts[.activityTransition], width: 22),
            field("Actions:", counts[.userAction], width: 20),
        ]
        return String(repeating: "-", count: 116) + "\n"
            + log.joined(separator: ", ") + "\n"
            + activity.joined(separator: ", ") + "\n"
    }

    private func field(_ label: String, _ value: Int, width: Int) -> String {
        let number = String(value)
        return label + String(repeating: " ", count: max(1, width - label.count - number.count)) + number
    }
}
