import DiagModel
import Synchronization

/// The records read from one `read`, sorted by where they go.
struct LineBatch {
    var receiptTime: Int64 = 0
    var storeFailure: String?
    var levels = LevelConfiguration.Snapshot(global: .systemDefault)
    /// Packed as the bind values of their rows, for the writer (`PackedRecords`).
    var persisted = PackedRecords()
    var ringOnly: [LogRecord] = []
    /// Sizes of the lines the records came from: what bounds the queue's and the ring's memory.
    var persistedBytes = 0
    var ringOnlySizes: [Int] = []
    /// Every kept record in arrival order, for the live streams (only while there are any).
    var live: [LogRecord] = []
    var streaming = false
    var dropped = 0
    /// Reads plain record lines straight into `persisted` (its scratch kept from line to line).
    private var reader = RecordLineReader()

    mutating func begin(receiptTime: Int64, storeFailure: String?, levels: LevelConfiguration.Snapshot, streaming: Bool) {
        self.receiptTime = receiptTime
        self.storeFailure = storeFailure
        self.levels = levels
        self.streaming = streaming
    }

    /// Takes the record (consumed: moved into its array, not copied, unless streams want it too).
    mutating func add(_ record: consuming LogRecord, size: Int) {
        let destination = levels.destination(of: record)
        if streaming && destination != .dropped { live.append(copy record) }
        switch destination {
        case .persisted:
            if persisted.capacity == 0 { persisted = Self.buffers.lend() }
            persisted.append(record)
            persistedBytes += size
        case .ringOnly:
            ringOnly.append(record)
            ringOnlySizes.append(size)
        case .dropped: dropped += 1
        }
    }

    /// Takes a record line straight into its packed row when the level settings persist it and
    /// the store takes writes, stamped with the kernel's identity of the peer (and read back as
    /// a `LogRecord` for the live streams, when there are any). False when the line is anything
    /// else: the caller reads it the general way (`ClientMessage.parse`), which gives the same
    /// record or the error.
    mutating func takePlainRecord(_ line: UnsafeRawBufferPointer, from peer: PeerIdentity) -> Bool {
        guard prepareRow() else { return false }
        let bytes = line.assumingMemoryBound(to: UInt8.self)
        guard reader.read(bytes) else { return false }
        let reader = self.reader
        let destination = levels.destination(
            messageType: reader.messageType, subsystem: { reader.subsystem(in: bytes) }, category: { reader.category(in: bytes) })
        guard destination == .persisted else { return false }
        reader.appendRow(
            from: bytes, to: &persisted, receiptTime: receiptTime,
            process: peer.process, processID: peer.processID, processImagePath: peer.processImagePath, userID: peer.userID)
        rowAppended(size: line.count)
        return true
    }

    /// Before a reader packs a row into `persisted` itself: false while the store refuses
    /// writes (the general way then counts the record as refused); else lends `persisted` a
    /// buffer if it has none.
    mutating func prepareRow() -> Bool {
        guard storeFailure == nil else { return false }
        if persisted.capacity == 0 { persisted = Self.buffers.lend() }
        return true
    }

    /// After a reader packed a row into `persisted`: counts the bytes it came from, and reads
    /// it back as a `LogRecord` for the live streams, when there are any.
    mutating func rowAppended(size: Int) {
        persistedBytes += size
        if streaming {
            // Rows written here always read back; were one not to, the stream would miss it, not the store.
            if let record = try? persisted.lastRecord() { live.append(record) }
        }
    }

    mutating func reset() {
        Self.buffers.giveBack(&persisted)
        ringOnly = []
        persistedBytes = 0
        ringOnlySizes = []
        live = []
        dropped = 0
    }
}

extension JSONValue {
    var compactText: String {
        var writer = JSONWriter()
        writer.append(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

extension LineBatch {
    /// The batches' row buffers, lent for a batch and given back when it is queued: a batch
    /// (up to a read's worth, ~1,000 records) then reuses a grown buffer instead of growing a
    /// new one, and an idle connection holds none. A few, as many as batches fill at once.
    static let buffers = PackedBufferPool(keeping: 16, largest: 4 << 20)
}

/// Emptied `PackedRecords` buffers kept for reuse: at most `keeping`, none over `largest` bytes.
final class PackedBufferPool: Sendable {
    private let spares = Mutex<[PackedRecords]>([])
    let keeping: Int
    let largest: Int

    init(keeping: Int, largest: Int) {
        self.keeping = keeping
        self.largest = largest
    }

    func lend() -> PackedRecords {
        spares.withLock { $0.popLast() } ?? PackedRecords()
    }

    /// Takes `buffer`'s storage (emptied), leaving it an empty buffer without any.
    func giveBack(_ buffer: inout PackedRecords) {
        var taken = PackedRecords()
        swap(&taken, &buffer)
        guard taken.capacity > 0, taken.capacity <= largest else { return }
        taken.removeAll(keepingCapacity: true)
        spares.withLock { spares in
            if spares.count < keeping { spares.append(taken) }
        }
    }
}
