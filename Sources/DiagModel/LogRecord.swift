/// One log record, with the fields of `log show --style ndjson` (DESIGN.md, "The record").
///
/// Optional fields are `nil` when missing; in JSON, absent and `null` both mean missing.
public struct LogRecord: Sendable, Hashable {
    /// Nanoseconds since the Unix epoch: when the event happened.
    public var timestamp: Int64
    public var messageType: MessageType
    public var eventType: EventType

    // Trusted fields: set by diagd from the socket peer, kept from the file on import.
    public var process: String?
    public var processID: Int64?
    public var processImagePath: String?
    public var userID: Int64?

    public var sender: String?
    public var senderImagePath: String?
    public var subsystem: String?
    public var category: String?

    public var threadID: Int64?
    public var activityIdentifier: Int64?
    public var parentActivityIdentifier: Int64?
    public var traceID: Int64?

    /// The composed message (`composedMessage` and `message` in predicates).
    public var eventMessage: String
    public var formatString: String?

    public var signpostID: Int64?
    public var signpostName: String?
    public var signpostType: String?
    /// Whose IDs the signpost's ID is unique among: `process` (the default), `thread` or
    /// `system`; intervals pair begin and end within one such owner.
    public var signpostScope: String?

    /// Structured fields, reachable in predicates as `metadata.<key>`.
    public var metadata: [String: JSONValue]?

    /// Nanoseconds since the epoch when diagd received the record; nil for imported records.
    public var receiptTime: Int64?

    public init(
        timestamp: Int64,
        messageType: MessageType = .default,
        eventType: EventType = .logEvent,
        process: String? = nil,
        processID: Int64? = nil,
        processImagePath: String? = nil,
        userID: Int64? = nil,
        sender: String? = nil,
        senderImagePath: String? = nil,
        subsystem: String? = nil,
        category: String? = nil,
        threadID: Int64? = nil,
        activityIdentifier: Int64? = nil,
        parentActivityIdentifier: Int64? = nil,
        traceID: Int64? = nil,
        eventMessage: String,
        formatString: String? = nil,
        signpostID: Int64? = nil,
        signpostName: String? = nil,
        signpostType: String? = nil,
        signpostScope: String? = nil,
        metadata: [String: JSONValue]? = nil,
        receiptTime: Int64? = nil
    ) {
        self.timestamp = timestamp
        self.messageType = messageType
        self.eventType = eventType
        self.process = process
        self.processID = processID
        self.processImagePath = processImagePath
        self.userID = userID
        self.sender = sender
        self.senderImagePath = senderImagePath
        self.subsystem = subsystem
        self.category = category
        self.threadID = threadID
        self.activityIdentifier = activityIdentifier
        self.parentActivityIdentifier = parentActivityIdentifier
        self.traceID = traceID
        self.eventMessage = eventMessage
        self.formatString = formatString
        self.signpostID = signpostID
        self.signpostName = signpostName
        self.signpostType = signpostType
        self.signpostScope = signpostScope
        self.metadata = metadata
        self.receiptTime = receiptTime
    }
}
