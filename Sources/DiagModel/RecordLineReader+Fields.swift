extension LogRecordField {
    /// A bit of its own for each field: `RecordLineReader` refuses a repeated key (it leaves the
    /// line to `LogRecord(jsonBytes:)`, which judges the last value).
    var bit: Int {
        switch self {
        case .timestamp: 0
        case .timestampNanoseconds: 1
        case .messageType: 2
        case .eventType: 3
        case .eventMessage: 4
        case .message: 5
        case .composedMessage: 6
        case .process: 7
        case .processID: 8
        case .processImagePath: 9
        case .userID: 10
        case .sender: 11
        case .senderImagePath: 12
        case .subsystem: 13
        case .category: 14
        case .threadID: 15
        case .activityIdentifier: 16
        case .parentActivityIdentifier: 17
        case .traceID: 18
        case .formatString: 19
        case .signpostID: 20
        case .signpostName: 21
        case .signpostType: 22
        case .signpostScope: 23
        case .receiptTime: 24
        case .metadata: 25
        }
    }
}
