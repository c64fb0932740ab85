import DiagModel
import DiagProtocol
import Glibc

/// Reads one connection on its own thread: frames lines, reads each, stamps trusted fields,
/// and hands records to the queue in one batch per read.
struct ConnectionHandler {
    let connection: Connection
    let context: IngestContext

    /// Per connection: small enough for thousands of clients, large enough for ~250 records a read.
    private static let readSize = 64 << 10

    func run() {
        defer {
            context.counters.openConnections.wrappingSubtract(1, ordering: .relaxed)
            reportAtClose()
        }
        var framer = LineFramer()
        var batch = LineBatch()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 16)
        defer { buffer.deallocate() }
        while !connection.isBroken {
            var poller = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
            if connection.hasPendingReplies { poller.events |= Int16(POLLOUT) }
            let ready = poll(&poller, 1, 250)
            if ready < 0 && errno != EINTR { break }
            if poller.revents & Int16(POLLOUT) != 0 { connection.flushOutbox() }
            guard poller.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
            let count = read(connection.descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { break }
            batch.begin(receiptTime: DaemonLog.now(), storeFailure: context.writer.storeFailure, levels: context.levels.snapshot, streaming: !context.hub.isEmpty)
            var subscription: StreamRequest?
            framer.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { event in
                guard subscription == nil else { return }
                subscription = handle(event, &batch)
            }
            finish(&batch)
            if let subscription {
                StreamSession(connection: connection, context: context, request: subscription).run()
                return
            }
        }
        if !connection.isBroken {
            batch.begin(receiptTime: DaemonLog.now(), storeFailure: context.writer.storeFailure, levels: context.levels.snapshot, streaming: !context.hub.isEmpty)
            framer.finish { event in _ = handle(event, &batch) }
            finish(&batch)
        }
    }

    /// Handles one line; returns a stream request when the line turns the connection into a stream.
    private func handle(_ event: LineFramer.Event, _ batch: inout LineBatch) -> StreamRequest? {
        switch event {
        case .tooLong(let number, let length):
            refuse(line: number, "line is \(length) bytes; a line may be at most \(LineFramer.defaultMaximumLength) bytes (1 MiB)")
            return nil
        case .line(let number, let bytes):
            let message: ClientMessage?
            do {
                message = try ClientMessage.parse(bytes, receiptTime: batch.receiptTime)
            } catch {
                refuse(line: number, error.description)
                return nil
            }
            guard let message else { return nil }
            switch message {
            case .record(var record):
                if let failure = batch.storeFailure {
                    context.counters.add(context.counters.refusedWhileStoreFailing)
                    connection.send(.object(["error": .string("record not accepted: the store refuses writes (\(failure)); retry later"), "line": .int(Int64(number))]))
                    return nil
                }
                connection.peer.stamp(&record)
                batch.add(record, size: bytes.count)
            case .sync(let id):
                finish(&batch)
                if !context.queue.pushSync(connection, id: id) {
                    connection.send(.object(["error": .string("diagd is stopping: records after the last synced reply may not be stored"), "line": .int(Int64(number)), "sync": id]))
                }
            case .ring:
                finish(&batch)
                sendRing()
            case .stats:
                finish(&batch)
                connection.send(.object(["stats": context.counters.json]))
            case .configure(nil):
                connection.send(.object(["configured": .array(context.levels.snapshot.settings.map(\.json))]))
            case .configure(let setting?):
                do {
                    let settings = try context.levels.apply(setting)
                    context.log.log(.default, "level setting changed by pid \(connection.peer.processID): \(setting.json.compactText)", category: "config")
                    connection.send(.object(["configured": .array(settings.map(\.json))]))
                } catch {
                    connection.send(.object(["error": .string(error.description), "line": .int(Int64(number))]))
                }
            case .resetLevels(let reset):
                do {
                    let settings = try context.levels.reset(reset)
                    context.log.log(.default, "level setting reset by pid \(connection.peer.processID): \(reset.json.compactText)", category: "config")
                    connection.send(.object(["configured": .array(settings.map(\.json))]))
                } catch {
                    connection.send(.object(["error": .string(error.description), "line": .int(Int64(number))]))
                }
            case .subscribe(let request):
                finish(&batch)
                return request
            }
            return nil
        }
    }

    private func refuse(line: Int, _ reason: String) {
        context.counters.add(context.counters.invalidLines)
        if connection.invalidLines.wrappingAdd(1, ordering: .relaxed).oldValue == 0 {
            connection.firstRefusal.withLock { $0 = "line \(line): \(reason)" }
        }
        connection.send(.object(["error": .string(reason), "line": .int(Int64(line))]))
    }

    /// One line in the daemon's log for a connection that sent bad lines or was dropped.
    private func reportAtClose() {
        let peer = connection.peer
        let who = "pid \(peer.processID) (\(peer.process ?? "?"), uid \(peer.userID))"
        if connection.overflowed {
            context.log.log(.error, "dropped the connection of \(who): it did not read its replies (over \(Connection.outboxLimit) bytes waiting)", category: "connection")
        }
        let invalid = connection.invalidLines.load(ordering: .relaxed)
        if invalid > 0, let first = connection.firstRefusal.withLock({ $0 }) {
            context.log.log(.error, "\(who) sent \(invalid) invalid line\(invalid == 1 ? "" : "s"); the first, \(first)", category: "connection")
        }
    }

    /// Routes the batch: persisted records to the writer, the rest to the ring; all to streams.
    private func finish(_ batch: inout LineBatch) {
        let counters = context.counters
        counters.add(counters.received, batch.persisted.count + batch.ringOnly.count + batch.dropped)
        counters.add(counters.ringOnly, batch.ringOnly.count)
        counters.add(counters.droppedByLevel, batch.dropped)
        if !batch.live.isEmpty {
            counters.add(counters.streamDrops, context.hub.publish(batch.live))
        }
        context.ring.append(batch.ringOnly, sizes: batch.ringOnlySizes)
        context.queue.push(batch.persisted, bytes: batch.persistedBytes)
        batch.reset()
    }

    private func sendRing() {
        let records = context.ring.contents()
        for record in records {
            var writer = JSONWriter()
            record.writeJSON(to: &writer)
            writer.bytes.append(UInt8(ascii: "\n"))
            guard connection.sendWaiting(writer.bytes) else { return }
        }
        connection.send(.object(["end": .int(Int64(records.count))]))
    }
}

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
        persisted = []
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
