import DiagModel

/// What `diag patterns` shows of a pattern beside its count: first and last time, the
/// records of each level, the processes and subsystems that logged it and one sample.
/// Bounded: at most `maximumNames` process and subsystem names, the rest counted.
public struct RecordPatternSummary: PatternSummary {
    public static let maximumNames = 16

    public private(set) var count = 0
    public private(set) var first = Int64.max
    public private(set) var last = Int64.min
    /// Records by level, in `MessageType.allCases` order.
    public private(set) var levels = [Int](repeating: 0, count: MessageType.allCases.count)
    public private(set) var processes: [String: Int] = [:]
    public private(set) var subsystems: [String: Int] = [:]
    /// Records whose process or subsystem did not fit in the names kept.
    public private(set) var otherProcesses = 0
    public private(set) var otherSubsystems = 0
    public private(set) var sample: String?

    public init() {}

    public mutating func count(_ record: some PatternRecord) {
        count += 1
        first = min(first, record.timestamp)
        last = max(last, record.timestamp)
        levels[Self.levelIndex(record.messageType)] += 1
        if let process = record.process { Self.add(process, 1, to: &processes, other: &otherProcesses) }
        if let subsystem = record.subsystem { Self.add(subsystem, 1, to: &subsystems, other: &otherSubsystems) }
        if sample == nil { sample = record.eventMessage }
    }

    public mutating func merge(_ other: RecordPatternSummary) {
        count += other.count
        first = min(first, other.first)
        last = max(last, other.last)
        for index in levels.indices { levels[index] += other.levels[index] }
        for (name, count) in other.processes.sorted(by: { $0.key < $1.key }) { Self.add(name, count, to: &processes, other: &otherProcesses) }
        for (name, count) in other.subsystems.sorted(by: { $0.key < $1.key }) { Self.add(name, count, to: &subsystems, other: &otherSubsystems) }
        otherProcesses += other.otherProcesses
        otherSubsystems += other.otherSubsystems
        if sample == nil { sample = other.sample }
    }

    public func count(of level: MessageType) -> Int { levels[Self.levelIndex(level)] }

    /// Error and Fault records.
    public var problems: Int { count(of: .error) + count(of: .fault) }

    /// Names by count, then by name.
    public static func ranked(_ names: [String: Int]) -> [(name: String, count: Int)] {
        names.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    static func levelIndex(_ level: MessageType) -> Int {
        MessageType.allCases.firstIndex(of: level)!
    }

    private static func add(_ name: String, _ count: Int, to names: inout [String: Int], other: inout Int) {
        if names[name] != nil || names.count < maximumNames {
            names[name, default: 0] += count
        } else {
            other += count
        }
    }
}

/// The fields of a record that a pattern's summary counts: a `LogRecord`, or a row of a store
/// read without decoding the rest (`diag patterns` over a store).
public protocol PatternRecord {
    var timestamp: Int64 { get }
    var messageType: MessageType { get }
    var process: String? { get }
    var subsystem: String? { get }
    /// Read only for the first record of a pattern (its sample).
    var eventMessage: String { get }
}

extension LogRecord: PatternRecord {}
