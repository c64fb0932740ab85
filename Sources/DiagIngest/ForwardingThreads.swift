import DiagForward
import DiagModel
import DiagStore
import Foundation
import Synchronization

/// diagd's forwards (`--forward`, `--config`): one `Forwarder` thread each, following the store
/// the writer appends to. The writer wakes them after each commit and never waits for them.
final class ForwardingThreads: Sendable {
    let destinations: [ForwardDestination]
    private let forwarders = Mutex<[Forwarder]>([])
    private let running = DispatchGroup()

    init(destinations: [ForwardDestination]) {
        self.destinations = destinations
    }

    /// Prepares a forwarder per destination over the store diagd opened, each with its start
    /// position fixed and saved now, before diagd accepts anything: a new forward sends every
    /// record committed from here on. A damaged cursor file is an error here.
    func attach(store: LogStore, report: @escaping @Sendable (MessageType, String) -> Void) throws {
        let hostname = RFC5424Encoder.localHostname()
        var created: [Forwarder] = []
        for destination in destinations {
            do {
                _ = try ForwardCursor.load(from: ForwardCursor.fileURL(storeDirectory: store.url, destination: destination))
            } catch {
                throw IngestError("\(error)")
            }
            let cancellation = ForwardCancellation()
            let forwarder = Forwarder(
                destination: destination, sink: destination.makeSink(hostname: hostname, cancellation: cancellation),
                storeDirectory: store.url, storeInfo: { store.info }, cancellation: cancellation, report: report)
            do {
                try forwarder.prepare()
            } catch {
                throw IngestError("forward \(destination): \(error)")
            }
            created.append(forwarder)
        }
        forwarders.withLock { $0 = created }
    }

    func start() {
        for forwarder in forwarders.withLock({ $0 }) {
            running.enter()
            let thread = Thread { [running] in
                defer { running.leave() }
                ThreadName.setCurrent("diagd-forward")
                ForwardThreadPriority.lower()
                do {
                    try forwarder.run()
                } catch {
                    FileHandle.standardError.write(Data("diagd: fault: forward \(forwarder.destination) stopped: \(error)\n".utf8))
                }
            }
            thread.start()
        }
    }

    /// Records were committed.
    func wake() {
        for forwarder in forwarders.withLock({ $0 }) { forwarder.wake() }
    }

    /// Stops every forward (a delivery under way gives up its waits) and waits a few seconds for
    /// them: what was not delivered waits in the store for the next start.
    func stop() {
        for forwarder in forwarders.withLock({ $0 }) { forwarder.stop() }
        _ = running.wait(timeout: .now() + 5)
    }
}

/// The writer's store, telling the forwards after each commit.
final class ForwardingRecordStore: RecordStore {
    private let store: any RecordStore
    private let forwarding: ForwardingThreads

    init(store: any RecordStore, forwarding: ForwardingThreads) {
        self.store = store
        self.forwarding = forwarding
    }

    func append(_ records: PackedRecords) throws {
        try store.append(records)
        forwarding.wake()
    }

    func maintain(idle: Bool) throws { try store.maintain(idle: idle) }
    var needsMaintenance: Bool { store.needsMaintenance }
    var idleCheckInterval: Double? { store.idleCheckInterval }

    func close() throws { try store.close() }
}

@available(*, unavailable) extension ForwardingRecordStore: Sendable {}
