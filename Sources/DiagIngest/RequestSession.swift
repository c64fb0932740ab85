import DiagModel
import DiagProtocol

/// One connection's protocol, without its socket: frames the bytes read into lines, reads each
/// line, stamps the kernel's identity of the peer on records, routes them (store, ring, streams)
/// and answers requests through a `ReplySink`.
///
/// A ring dump and a stream are sent only as fast as the peer reads (`resume` goes on while
/// less than `replyThreshold` bytes wait); while a ring dump is going, the lines read after its
/// request wait (`held`), so their replies follow the dump's end.
///
/// Not thread-safe: the worker that holds the connection's turn is the only one using it.
struct RequestSession {
    enum Mode {
        case lines
        case ring(records: [LogRecord], next: Int)
        case stream(StreamSubscriber)
        /// Nothing more to do: the connection closes once its replies are out.
        case closed
    }

    /// A dump or stream stops sending while this many reply bytes wait for the peer.
    static let replyThreshold = 256 << 10

    let peer: PeerIdentity
    let sink: any ReplySink
    let context: IngestContext
    private(set) var mode = Mode.lines
    private var framer = LineFramer()
    private var batch = LineBatch()
    /// Input read after a ring request, handled once the dump is out.
    private var held: [UInt8] = []
    /// Lines refused, and the first reason, for the daemon's log at close.
    private(set) var invalidLines = 0
    private(set) var firstRefusal: String?

    init(peer: PeerIdentity, sink: any ReplySink, context: IngestContext) {
        self.peer = peer
        self.sink = sink
        self.context = context
    }

    /// Whether the session takes input now (not during a ring dump; a stream's input is ignored).
    var readsInput: Bool {
        switch mode {
        case .lines, .stream: true
        case .ring, .closed: false
        }
    }

    var isClosed: Bool { if case .closed = mode { true } else { false } }
    var isStreaming: Bool { if case .stream = mode { true } else { false } }

    /// Handles bytes read from the peer: every complete line in them, in order.
    mutating func receive(_ bytes: UnsafeRawBufferPointer) {
        guard case .lines = mode else { return }
        beginBatch()
        // Taken out while it calls back into `handle`, which changes the rest of the session.
        var framer = self.framer
        self.framer = LineFramer()
        let used = framer.feed(bytes) { event in handle(event) }
        self.framer = framer
        finishBatch()
        if used < bytes.count, case .ring = mode {
            held.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[used...]))
        }
    }

    /// The peer closed its end: a last line without its newline still counts.
    mutating func endOfInput() {
        switch mode {
        case .lines:
            beginBatch()
            var framer = self.framer
            self.framer = LineFramer()
            framer.finish { event in handle(event) }
            self.framer = framer
            finishBatch()
            mode = .closed
        case .stream(let subscriber):
            context.hub.remove(subscriber)
            mode = .closed
        case .ring, .closed:
            mode = .closed
        }
    }

    /// Goes on with a ring dump or a stream while the peer keeps up.
    mutating func resume() {
        while sink.pendingReplyBytes < Self.replyThreshold {
            switch mode {
            case .lines, .closed:
                return
            case .ring(let records, let next):
                guard next < records.count else {
                    sink.send(.end(records.count))
                    mode = .lines
                    handleHeldInput()
                    continue
                }
                // Up to 64 KiB at a time: a record may be 1 MiB, and the check above comes first.
                var writer = JSONWriter(reservingCapacity: 64 << 10)
                var end = next
                while end < records.count && writer.bytes.count < 64 << 10 {
                    DaemonReply.record(records[end]).write(to: &writer)
                    end += 1
                }
                mode = .ring(records: records, next: end)
                sink.send(bytes: writer.bytes)
            case .stream(let subscriber):
                let (records, dropped, closed) = subscriber.take(upTo: 64)
                if dropped > 0 { sink.send(.dropped(dropped)) }
                if !records.isEmpty {
                    var writer = JSONWriter(reservingCapacity: records.count * 256)
                    for record in records { DaemonReply.record(record).write(to: &writer) }
                    sink.send(bytes: writer.bytes)
                }
                if closed {
                    context.hub.remove(subscriber)
                    mode = .closed
                }
                if records.isEmpty { return }
            }
        }
    }

    /// Ends a stream's subscription when the connection goes away for another reason.
    mutating func close() {
        if case .stream(let subscriber) = mode { context.hub.remove(subscriber) }
        mode = .closed
    }

    private mutating func handleHeldInput() {
        guard !held.isEmpty else { return }
        let input = held
        held = []
        input.withUnsafeBytes { receive($0) }
    }

    private mutating func beginBatch() {
        batch.begin(
            receiptTime: DaemonLog.now(), storeFailure: context.writer.storeFailure, levels: context.levels.snapshot,
            streaming: !context.hub.isEmpty)
    }

    /// Handles one line; false when the line changes what the connection does next.
    private mutating func handle(_ event: LineFramer.Event) -> Bool {
        switch event {
        case .tooLong(let number, let length):
            refuse(line: number, "line is \(length) bytes; a line may be at most \(LineBounds.requestText)")
            return true
        case .line(let number, let bytes):
            let message: ClientMessage?
            do {
                message = try ClientMessage.parse(bytes, receiptTime: batch.receiptTime)
            } catch {
                refuse(line: number, error.description)
                return true
            }
            guard let message else { return true }
            return dispatch(message, line: number, size: bytes.count)
        }
    }

    private mutating func dispatch(_ message: ClientMessage, line number: Int, size: Int) -> Bool {
        switch message {
        case .record(var record):
            if let failure = batch.storeFailure {
                context.counters.add(context.counters.refusedWhileStoreFailing)
                sink.send(.error("record not accepted: the store refuses writes (\(failure)); retry later", line: number))
                return true
            }
            peer.stamp(&record)
            batch.add(consume record, size: size)
        case .sync(let id):
            finishBatch()
            let sink = self.sink
            if !context.queue.pushSync(reply: { sink.send(.synced(id)) }) {
                sink.send(.error("diagd is stopping: records after the last synced reply may not be stored", line: number, sync: id))
            }
        case .ring:
            finishBatch()
            mode = .ring(records: context.ring.contents(), next: 0)
            return false
        case .stats:
            finishBatch()
            sink.send(.stats(context.counters.byName))
        case .configure(nil):
            sink.send(.configured(context.levels.snapshot.settings))
        case .configure(let setting?):
            do {
                let settings = try context.levels.apply(setting)
                context.log.log(.default, "level setting changed by pid \(peer.processID): \(setting.json.compactText)", category: "config")
                sink.send(.configured(settings))
            } catch {
                sink.send(.error(error.description, line: number))
            }
        case .resetLevels(let reset):
            do {
                let settings = try context.levels.reset(reset)
                context.log.log(.default, "level setting reset by pid \(peer.processID): \(reset.json.compactText)", category: "config")
                sink.send(.configured(settings))
            } catch {
                sink.send(.error(error.description, line: number))
            }
        case .subscribe(let request):
            finishBatch()
            subscribe(request)
            return false
        }
        return true
    }

    private mutating func subscribe(_ request: StreamRequest) {
        let filter: (@Sendable (LogRecord) -> Bool)?
        do {
            filter = try context.makeStreamFilter(request.predicate)
        } catch {
            sink.send(.error("\(error)"))
            mode = .closed
            return
        }
        let sink = self.sink
        let subscriber = StreamSubscriber(request: request, filter: filter) { sink.requestTurn() }
        // In the hub before the reply: a client that logs once it reads the reply is streamed.
        context.hub.add(subscriber)
        mode = .stream(subscriber)
        sink.send(.subscribed(request))
    }

    private mutating func refuse(line: Int, _ reason: String) {
        context.counters.add(context.counters.invalidLines)
        invalidLines += 1
        if firstRefusal == nil { firstRefusal = "line \(line): \(reason)" }
        sink.send(.error(reason, line: line))
    }

    /// Routes the batch: persisted records to the writer, the rest to the ring; all to streams.
    private mutating func finishBatch() {
        let counters = context.counters
        let total = batch.persisted.count + batch.ringOnly.count + batch.dropped
        guard total > 0 else { return }
        counters.add(counters.received, total)
        counters.add(counters.ringOnly, batch.ringOnly.count)
        counters.add(counters.droppedByLevel, batch.dropped)
        if !batch.live.isEmpty {
            counters.add(counters.streamDrops, context.hub.publish(batch.live))
        }
        if !batch.ringOnly.isEmpty { context.ring.append(batch.ringOnly, sizes: batch.ringOnlySizes) }
        context.queue.push(taking: &batch.persisted, bytes: batch.persistedBytes)
        batch.reset()
    }
}
