/// The level of a log record, with the codes Apple's `log` uses (`messageType == 16`).
///
/// The codes are not severity order (`info` 1 < `debug` 2 < `error` 16); `severity` gives that.
public enum MessageType: Int, Sendable, Hashable, CaseIterable, Comparable {
    case `default` = 0
    case info = 1
    case debug = 2
    case error = 16
    case fault = 17

    /// The capitalised name `log show` prints: `Default`, `Info`, `Debug`, `Error`, `Fault`.
    public var name: String { staticName.description }

    /// `name` as static text, for writers that copy its bytes.
    public var staticName: StaticString {
        switch self {
        case .default: "Default"
        case .info: "Info"
        case .debug: "Debug"
        case .error: "Error"
        case .fault: "Fault"
        }
    }

    /// Debug < Info < Default < Error < Fault.
    public var severity: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .default: 2
        case .error: 3
        case .fault: 4
        }
    }

    /// Reads a name in any case (`default`, `ERROR`, `release`) or a code (`16`).
    public init?(name: some StringProtocol) {
        switch name.lowercased() {
        case "default", "release", "notice", "0": self = .default
        case "info", "1": self = .info
        case "debug", "2": self = .debug
        case "error", "16": self = .error
        case "fault", "17": self = .fault
        default: return nil
        }
    }

    public static func < (lhs: MessageType, rhs: MessageType) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The kind of event, with Apple's codes where Apple documents them (PREDICATES.md §9.3).
public enum EventType: Int, Sendable, Hashable, CaseIterable {
    case activityCreateEvent = 513
    case activityTransitionEvent = 514
    case traceEvent = 768
    case logEvent = 1024
    case stateEvent = 1280
    case signpostEvent = 1536
    case lossEvent = 1792
    case timesyncEvent = 2048
    case userActionEvent = 2304

    public var name: String { staticName.description }

    /// `name` as static text, for writers that copy its bytes.
    public var staticName: StaticString {
        switch self {
        case .activityCreateEvent: "activityCreateEvent"
        case .activityTransitionEvent: "activityTransitionEvent"
        case .traceEvent: "traceEvent"
        case .logEvent: "logEvent"
        case .stateEvent: "stateEvent"
        case .signpostEvent: "signpostEvent"
        case .lossEvent: "lossEvent"
        case .timesyncEvent: "timesyncEvent"
        case .userActionEvent: "userActionEvent"
        }
    }

    /// Reads a name in any case (`logEvent`, `LOGEVENT`) or a code (`1024`).
    public init?(name: some StringProtocol) {
        let lowered = name.lowercased()
        if let code = Int(lowered), let value = EventType(rawValue: code) {
            self = value
            return
        }
        guard let value = EventType.allCases.first(where: { $0.name.lowercased() == lowered }) else { return nil }
        self = value
    }
}
