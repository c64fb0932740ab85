import DiagModel
import Synchronization

/// The daemon's counters, answered to `{"stats": true}` and logged at exit.
final class IngestCounters: Sendable {
    let received = Atomic<Int>(0)
    let persisted = Atomic<Int>(0)
    let ringOnly = Atomic<Int>(0)
    let droppedByLevel = Atomic<Int>(0)
    let invalidLines = Atomic<Int>(0)
    let refusedWhileStoreFailing = Atomic<Int>(0)
    let streamDrops = Atomic<Int>(0)
    let connections = Atomic<Int>(0)
    let openConnections = Atomic<Int>(0)
    let transactions = Atomic<Int>(0)
    /// Syslog and OTLP input (Syslog/, OTLP/): messages read, refused as malformed, and lost
    /// because the writer was behind or the store refused writes (datagrams cannot wait).
    let syslogReceived = Atomic<Int>(0)
    let syslogInvalid = Atomic<Int>(0)
    let syslogLost = Atomic<Int>(0)
    /// OTLP/HTTP: records taken, and requests refused (bad payload, too large).
    let otlpReceived = Atomic<Int>(0)
    let otlpRefused = Atomic<Int>(0)

    func add(_ counter: borrowing Atomic<Int>, _ amount: Int = 1) {
        counter.wrappingAdd(amount, ordering: .relaxed)
    }

    var json: JSONValue { .object(byName) }

    /// Every counter by name: the members of `{"stats": {…}}`.
    var byName: [String: JSONValue] {
        func value(_ counter: borrowing Atomic<Int>) -> JSONValue { .int(Int64(counter.load(ordering: .relaxed))) }
        return [
            "received": value(received),
            "persisted": value(persisted),
            "ringOnly": value(ringOnly),
            "droppedByLevel": value(droppedByLevel),
            "invalidLines": value(invalidLines),
            "refusedWhileStoreFailing": value(refusedWhileStoreFailing),
            "streamDrops": value(streamDrops),
            "connections": value(connections),
            "openConnections": value(openConnections),
            "transactions": value(transactions),
            "syslogReceived": value(syslogReceived),
            "syslogInvalid": value(syslogInvalid),
            "syslogLost": value(syslogLost),
            "otlpReceived": value(otlpReceived),
            "otlpRefused": value(otlpRefused),
        ]
    }
}
