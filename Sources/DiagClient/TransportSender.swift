import DiagModel
import DiagProtocol
import Foundation
import Glibc

/// The background thread of a `LogTransport`: connects, writes the buffer, then a `sync` line
/// when a `flush` waits, and reconnects with back-off when the daemon goes away.
struct TransportSender {
    let transport: LogTransport

    func run() {
        var socket: ClientSocket?
        var backoff = 0.05
        while true {
            let (chunk, wantedSync) = takeWork(connected: socket != nil)
            if socket == nil || isBroken(socket!) {
                socket?.shutdown()
                socket = connect()
                guard socket != nil else {
                    putBack(chunk[...])
                    Thread.sleep(forTimeInterval: backoff)
                    backoff = min(backoff * 2, 1)
                    continue
                }
                backoff = 0.05
            }
            guard let connection = socket else { continue }
            if !chunk.isEmpty {
                markWritingRecords(connection)
                let written = connection.writeAll(chunk)
                if written < chunk.count {
                    broke(connection, "write to diagd failed: \(String(cString: strerror(errno)))")
                    let lineStart = chunk[..<written].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
                    putBack(chunk[lineStart...])
                    continue
                }
            }
            if let wantedSync {
                markWritingSync(wantedSync, connection)
                if connection.writeAll(ClientMessage.sync(.int(wantedSync)).line) == 0 {
                    broke(connection, "write to diagd failed: \(String(cString: strerror(errno)))")
                }
            }
        }
    }

    /// Waits for records or a sync request; a loss record first when records were dropped.
    private func takeWork(connected: Bool) -> ([UInt8], Int64?) {
        let condition = transport.condition
        condition.lock()
        defer { condition.unlock() }
        while transport.buffer.isEmpty && transport.droppedSinceReport == 0 && !syncPending {
            condition.wait()
        }
        if transport.droppedSinceReport > 0 {
            let lost = transport.droppedSinceReport
            transport.droppedSinceReport = 0
            let record = LogRecord(
                timestamp: Clock.now(), messageType: .error, eventType: .lossEvent, sender: "DiagClient",
                eventMessage: "\(lost) records were dropped: the client's buffer of \(transport.bufferLimit) bytes was full",
                metadata: ["dropped": .int(Int64(lost))])
            transport.buffer.append(contentsOf: RecordEncoder.line(record))
        }
        let chunk = transport.buffer
        transport.buffer = []
        transport.buffer.reserveCapacity(min(chunk.count, 1 << 20))
        let state = transport.state
        let wanted = state.requestedSync > state.acknowledgedSync && (state.requestedSync > state.syncWrittenOnConnection || state.connectionBroken)
            ? state.requestedSync : nil
        return (chunk, wanted)
    }

    /// A sync is wanted and not yet written to the live connection.
    private var syncPending: Bool {
        let state = transport.state
        return state.requestedSync > state.acknowledgedSync
            && (state.requestedSync > state.syncWrittenOnConnection || state.connectionBroken)
            && state.failedThrough < state.requestedSync
    }

    private func putBack(_ bytes: ArraySlice<UInt8>) {
        guard !bytes.isEmpty else { return }
        transport.condition.lock()
        transport.buffer.insert(contentsOf: bytes, at: 0)
        transport.condition.unlock()
    }

    private func connect() -> ClientSocket? {
        do {
            let socket = try ClientSocket(path: transport.socketPath)
            transport.condition.lock()
            transport.state.generation += 1
            transport.state.connections += 1
            transport.state.syncWrittenOnConnection = 0
            transport.state.recordsAfterLastSync = false
            transport.state.connectionBroken = false
            transport.state.lastConnectionError = nil
            socket.generation = transport.state.generation
            transport.condition.unlock()
            let reader = ReplyReader(transport: transport, socket: socket)
            let thread = Thread { reader.run() }
            thread.name = "diag-log-replies"
            thread.start()
            return socket
        } catch {
            transport.condition.lock()
            transport.state.lastConnectionError = error.description
            transport.condition.unlock()
            return nil
        }
    }

    private func isBroken(_ socket: ClientSocket) -> Bool {
        transport.condition.lock()
        defer { transport.condition.unlock() }
        return transport.state.connectionBroken || transport.state.generation != socket.generation
    }

    private func markWritingRecords(_ socket: ClientSocket) {
        transport.condition.lock()
        transport.state.recordsAfterLastSync = true
        transport.condition.unlock()
    }

    private func markWritingSync(_ id: Int64, _ socket: ClientSocket) {
        transport.condition.lock()
        transport.state.syncWrittenOnConnection = id
        transport.state.recordsAfterLastSync = false
        transport.condition.unlock()
    }

    private func broke(_ socket: ClientSocket, _ reason: String) {
        transport.connectionBroke(generation: socket.generation, reason: reason)
        socket.shutdown()
    }
}

extension LogTransport {
    /// Marks the connection of `generation` broken; `flush` calls waiting on records written to it
    /// and not yet acknowledged fail, since the daemon may not have committed them.
    func connectionBroke(generation: Int, reason: String) {
        condition.lock()
        defer { condition.unlock() }
        guard state.generation == generation, !state.connectionBroken else { return }
        state.connectionBroken = true
        state.lastConnectionError = reason
        if state.recordsAfterLastSync || state.acknowledgedSync < state.syncWrittenOnConnection {
            state.failedThrough = state.nextSyncID
        }
        condition.broadcast()
    }
}
