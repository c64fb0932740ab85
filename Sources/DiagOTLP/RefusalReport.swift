import DiagIngest
import Foundation
import Synchronization

/// Refused requests in diagd's log: the first reason, then at most one line every 5 s with the
/// count since, so a client sending garbage in a loop cannot flood the store with reports.
final class RefusalReport: Sendable {
    private struct State {
        var pending = 0
        var first: String?
        var lastReport: Int64 = 0
    }

    private let state = Mutex(State())
    static let interval: Int64 = 5_000_000_000

    func add(_ reason: String, intake: RecordIntake) {
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let due = state.withLock { state -> (Int, String)? in
            state.pending += 1
            if state.first == nil { state.first = reason }
            guard now - state.lastReport >= Self.interval else { return nil }
            defer { state = State(lastReport: now) }
            return (state.pending, state.first!)
        }
        if let (count, first) = due { Self.log(count, first, intake) }
    }

    func flush(into intake: RecordIntake) {
        let due = state.withLock { state -> (Int, String)? in
            defer { state = State(lastReport: state.lastReport) }
            return state.first.map { (state.pending, $0) }
        }
        if let (count, first) = due { Self.log(count, first, intake) }
    }

    private static func log(_ count: Int, _ first: String, _ intake: RecordIntake) {
        intake.log(.error, "otlp-http: refused \(count) request\(count == 1 ? "" : "s"); the first: \(first)", category: "otlp")
    }
}
