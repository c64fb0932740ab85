import DiagModel

/// Events and bytes of messages per key of each grouping: what `diag stats` and `diag fleet
/// stats` count, filled from aggregate SQL (`add(_:_:events:bytes:)`) or record by record.
public struct StatsTally: Sendable {
    public struct Figures: Sendable, Hashable {
        public var events: Int64
        public var bytes: Int64
    }

    public private(set) var groups: [RecordGrouping: [SQLValue: Figures]] = [:]

    public init() {}

    /// Adds a group's figures; NULL is the key of records without the field.
    public mutating func add(_ grouping: RecordGrouping, _ key: SQLValue, events: Int64, bytes: Int64) {
        let old = groups[grouping, default: [:]][key] ?? Figures(events: 0, bytes: 0)
        groups[grouping, default: [:]][key] = Figures(events: old.events + events, bytes: old.bytes + bytes)
    }

    /// Counts one record in every grouping; its bytes are its message's UTF-8 bytes.
    public mutating func add(_ record: LogRecord) {
        let bytes = Int64(record.eventMessage.utf8.count)
        func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
        add(.process, text(record.process), events: 1, bytes: bytes)
        add(.sender, text(record.sender), events: 1, bytes: bytes)
        add(.subsystem, text(record.subsystem), events: 1, bytes: bytes)
        add(.category, text(record.category), events: 1, bytes: bytes)
        add(.messageType, .int(Int64(record.messageType.rawValue)), events: 1, bytes: bytes)
        add(.minute, .int(RecordGrouping.minuteStart(of: record.timestamp)), events: 1, bytes: bytes)
    }

    /// The figures of one key, zeros when no record had it.
    public func figures(_ grouping: RecordGrouping, _ key: SQLValue) -> Figures {
        groups[grouping]?[key] ?? Figures(events: 0, bytes: 0)
    }
}
