import DiagModel

/// The records read from one `read`, sorted by where they go.
struct LineBatch {
    var receiptTime: Int64 = 0
    var storeFailure: String?
    var levels = LevelConfiguration.Snapshot(global: .systemDefault)
    var persisted: [LogRecord] = []
    var ringOnly: [LogRecord] = []
    /// Sizes of the lines the records came from: what bounds the queue's and the ring's memory.
    var persistedBytes = 0
    var ringOnlySizes: [Int] = []
    /// Every kept record in arrival order, for the live streams (only while there are any).
    var live: [LogRecord] = []
    var streaming = false
    var dropped = 0

    mutating func begin(receiptTime: Int64, storeFailure: String?, levels: LevelConfiguration.Snapshot, streaming: Bool) {
        self.receiptTime = receiptTime
        self.storeFailure = storeFailure
        self.levels = levels
        self.streaming = streaming
    }

    mutating func add(_ record: LogRecord, size: Int) {
        let destination = levels.destination(of: record)
        if streaming && destination != .dropped { live.append(record) }
        switch destination {
        case .persisted:
            persisted.append(record)
            persistedBytes += size
        case .ringOnly:
            ringOnly.append(record)
            ringOnlySizes.append(size)
        case .dropped: dropped += 1
        }
    }

    mutating func reset() {
        persisted.removeAll(keepingCapacity: true)
        ringOnly = []
        persistedBytes = 0
        ringOnlySizes = []
        live = []
        dropped = 0
    }
}

extension PeerIdentity {
    /// Overwrites whatever the client claimed with what the kernel says.
    func stamp(_ record: inout LogRecord) {
        record.process = process
        record.processID = processID
        record.userID = userID
        record.processImagePath = processImagePath
    }
}

extension JSONValue {
    var compactText: String {
        var writer = JSONWriter()
        writer.append(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
