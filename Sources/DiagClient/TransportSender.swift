import DiagModel
import DiagProtocol
import Foundation
import Glibc
import Synchronization

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
        let limit = transport.bufferLimit
        return transport.shared.wait(on: \.sender) { shared -> ([UInt8], Int64?)? in
            if shared.buffer.isEmpty && shared.droppedSinceReport == 0 && !shared.syncPending { return nil }
            if shared.droppedSinceReport > 0 {
                let lost = shared.droppedSinceReport
                shared.droppedSinceReport = 0
                let record = LogRecord(
                    timestamp: Clock.now(), messageType: .error, eventType: .lossEvent, sender: "DiagClient",
                    eventMessage: "\(lost) records were dropped: the client's buffer of \(limit) bytes was full",
                    metadata: ["dropped": .int(Int64(lost))])
                shared.buffer.append(contentsOf: RecordEncoder.line(record))
            }
            let chunk = shared.buffer
            shared.buffer = []
            shared.buffer.reserveCapacity(min(chunk.count, 1 << 20))
            let state = shared.state
            let wanted = state.requestedSync > state.acknowledgedSync && (state.requestedSync > state.syncWrittenOnConnection || state.connectionBroken)
                ? state.requestedSync : nil
            return (chunk, wanted)
        }!
    }

    private func putBack(_ bytes: ArraySlice<UInt8>) {
        guard !bytes.isEmpty else { return }
        transport.shared.withLock { $0.buffer.insert(contentsOf: bytes, at: 0) }
    }

    private func connect() -> ClientSocket? {
        do {
            let socket = try ClientSocket(path: transport.socketPath)
            // Set before the reply reader shares the socket.
            socket.generation = transport.shared.withLock { shared in
                shared.state.generation += 1
                shared.state.connections += 1
                shared.state.syncWrittenOnConnection = 0
                shared.state.recordsAfterLastSync = false
                shared.state.connectionBroken = false
                shared.state.lastConnectionError = nil
                return shared.state.generation
            }
            let reader = ReplyReader(transport: transport, socket: socket)
            let thread = Thread {
                ThreadName.setCurrent("diag-log-replies")
                reader.run()
            }
            thread.start()
            return socket
        } catch {
            let reason = error.description
            transport.shared.withLock { $0.state.lastConnectionError = reason }
            return nil
        }
    }

    private func isBroken(_ socket: ClientSocket) -> Bool {
        let generation = socket.generation
        return transport.shared.withLock { $0.state.connectionBroken || $0.state.generation != generation }
    }

    private func markWritingRecords(_ socket: ClientSocket) {
        transport.shared.withLock { $0.state.recordsAfterLastSync = true }
    }

    private func markWritingSync(_ id: Int64, _ socket: ClientSocket) {
        transport.shared.withLock { shared in
            shared.state.syncWrittenOnConnection = id
            shared.state.recordsAfterLastSync = false
        }
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
        shared.withLock { shared in
            guard shared.state.generation == generation, !shared.state.connectionBroken else { return }
            shared.state.connectionBroken = true
            shared.state.lastConnectionError = reason
            if shared.state.recordsAfterLastSync || shared.state.acknowledgedSync < shared.state.syncWrittenOnConnection {
                shared.state.failedThrough = shared.state.nextSyncID
            }
            shared.flushes.wakeAll()
            shared.sender.wakeAll()
        }
    }
}
