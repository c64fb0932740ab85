import DiagModel

/// Makes realistic records from the four components of the sync system, like Apple's
/// LargeDataGenerator in the Core Data sessions: export, import, push and scheduling operations
/// that share an `activityIdentifier` across processes, store UUIDs and the container in their
/// messages, every level, a few errors and faults, Unicode, and message lengths like real logs.
///
/// Deterministic: the same options give the same records, on every platform.
///
/// ```swift
/// for record in RecordGenerator(GeneratorOptions(count: 1000, seed: 7)) { … }
/// ```
public struct RecordGenerator: Sequence, IteratorProtocol {
    public let options: GeneratorOptions
    var random: SplitMix64
    private var produced = 0
    private var clock: Int64
    private let meanGap: Double
    let core: SyncComponent
    let scheduler: SyncComponent
    let transport: SyncComponent
    let notifier: SyncComponent
    /// The stores of the sync core, as UUID strings (`5A3C…-…`).
    let stores: [String]
    var nextActivity: Int64
    private var pending: [LogRecord] = []
    private var pendingIndex = 0

    static let container = "iCloud.com.example.SyncDemo"
    static let pushTopic = "com.example.SyncDemo"

    public init(_ options: GeneratorOptions) {
        self.options = options
        random = SplitMix64(seed: options.seed)
        clock = options.start
        meanGap = 1e9 / Swift.max(options.ratePerSecond, 1e-9)
        (core, scheduler, transport, notifier) = SyncComponent.all(random: &random)
        var storeRandom = random
        stores = (0..<3).map { _ in Self.uuid(&storeRandom) }
        random = storeRandom
        nextActivity = Int64(random.between(1000, 90000))
        pending.reserveCapacity(64)
    }

    public mutating func next() -> LogRecord? {
        guard produced < options.count else { return nil }
        while pendingIndex == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            makeOperation()
        }
        var record = pending[pendingIndex]
        pendingIndex += 1
        record.timestamp = clock
        // Exponential gaps: bursts and lulls around the mean rate, like a real system.
        let gap = -(1 - random.unit()).logarithm * meanGap
        clock &+= Swift.max(1, Int64(Swift.min(gap, 3.6e12)))
        produced += 1
        return record
    }

    /// Queues the records of one operation, chosen by weight.
    private mutating func makeOperation() {
        let roll = random.below(100)
        switch roll {
        case 0..<34: makeExport()
        case 34..<58: makeImport()
        case 58..<72: makeSchedulerEvaluation()
        case 72..<82: makeTransportChatter()
        case 82..<90: makeNotifierConnection()
        default: makeStoreMaintenance()
        }
    }

    /// Appends one record of an operation; its timestamp is set when it is handed out.
    mutating func log(
        _ component: SyncComponent, _ sender: SyncSender? = nil, _ category: String, _ level: MessageType,
        _ message: String, activity: Int64? = nil, parent: Int64? = nil, event: EventType = .logEvent,
        format: String? = nil, trace: Int64? = nil, metadata: [String: JSONValue]? = nil
    ) {
        let sender = sender ?? .main(of: component)
        pending.append(LogRecord(
            timestamp: 0, messageType: level, eventType: event, process: component.process,
            processID: component.processID, processImagePath: component.imagePath, userID: 1000,
            sender: sender.name, senderImagePath: sender.imagePath, subsystem: component.subsystem,
            category: category, threadID: component.threads[random.below(component.threads.count)],
            activityIdentifier: activity, parentActivityIdentifier: parent, traceID: trace,
            eventMessage: message, formatString: format, metadata: metadata))
    }

    mutating func newActivity() -> Int64 {
        nextActivity += Int64(random.between(1, 40))
        return nextActivity
    }

    static func uuid(_ random: inout SplitMix64) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        var bits = random.next()
        for index in 0..<32 {
            if index == 16 { bits = random.next() }
            if [8, 12, 16, 20].contains(index) { bytes.append(UInt8(ascii: "-")) }
            bytes.append(hex[Int(bits & 0xF)])
            bits >>= 4
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Double {
    fileprivate var logarithm: Double {
        var value = self
        var result = 0.0
        // ln via frexp-free reduction: good to 1e-12, and identical everywhere (no libm variance).
        while value < 0.5 { value *= 2; result -= 0.6931471805599453 }
        while value > 1 { value /= 2; result += 0.6931471805599453 }
        let y = (value - 1) / (value + 1)
        let y2 = y * y
        var term = y
        var sum = 0.0
        var k = 1.0
        for _ in 0..<12 {
            sum += term / k
            term *= y2
            k += 2
        }
        return result + 2 * sum
    }
}
