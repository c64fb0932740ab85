import DiagModel

/// The counts `log show` prints after its records in the default style.
struct LevelSummary {
    private var levels: [MessageType: Int] = [:]
    private var activityCreates = 0
    private var activityTransitions = 0
    private var userActions = 0

    mutating func count(_ record: LogRecord) {
        switch record.eventType {
        case .activityCreateEvent: activityCreates += 1
        case .activityTransitionEvent: activityTransitions += 1
        case .userActionEvent: userActions += 1
        default: levels[record.messageType, default: 0] += 1
        }
    }

    /// The separator and two lines, with `log`'s field widths (30, 22, 20, 17, 17 characters).
    var text: String {
        let log = [
            field("Log      - Default:", levels[.default] ?? 0, width: 30),
            field("Info:", levels[.info] ?? 0, width: 22),
            field("Debug:", levels[.debug] ?? 0, width: 20),
            field("Error:", levels[.error] ?? 0, width: 17),
            field("Fault:", levels[.fault] ?? 0, width: 17),
        ]
        let activity = [
            field("Activity - Create:", activityCreates, width: 30),
            field("Transition:", activityTransitions, width: 22),
            field("Actions:", userActions, width: 20),
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
