import DiagModel
import DiagStore
import Foundation
import Synchronization

/// One thread's share of `BundleStatistics.count`: the chunks it scanned, grouped by process,
/// sender, subsystem, level and minute. Texts are interned from SQLite's bytes, so a record costs
/// no `String`, and the records of the minute being read are tallied apart (`MinuteTally`), so
/// most records cost no hashing either.
struct StatisticsScan {
    private typealias GroupKey = BundleStatistics.GroupKey
    private var groups: [GroupKey: Int64] = [:]
    private var processes = TextInterner(), senders = TextInterner(), subsystems = TextInterner()
    private var tally = BundleStatistics.MinuteTally()

    /// Counts the records of one chunk; returns how many there were.
    mutating func scan(_ source: SummarySource) throws -> Int64 {
        var recordCount: Int64 = 0
        do {
            let database = try source.open()
            let statement = try database.prepare("SELECT process, sender, subsystem, messageType, timestamp FROM records")
            while try statement.step() {
                recordCount += 1
                let timestamp = statement.int64(at: 4)
                let remainder = timestamp % BundleStatistics.nanosecondsPerMinute
                let key = GroupKey(process: statement.withTextBytes(at: 0) { processes.number($0) },
                                   sender: statement.withTextBytes(at: 1) { senders.number($0) },
                                   subsystem: statement.withTextBytes(at: 2) { subsystems.number($0) },
                                   level: statement.int64(at: 3),
                                   minute: timestamp - (remainder < 0 ? remainder + BundleStatistics.nanosecondsPerMinute : remainder))
                if !tally.add(key) {
                    tally.flush(into: &groups)
                    tally.add(key)
                }
            }
        } catch {
            throw BundleError.failure("cannot count the records of \(source.name): \(error)")
        }
        return recordCount
    }

    /// Adds this share's counts, by their texts, to `statistics`.
    mutating func add(to statistics: inout BundleStatistics) {
        tally.flush(into: &groups)
        for (key, count) in groups {
            statistics.add(process: processes.texts[Int(key.process)], sender: senders.texts[Int(key.sender)],
                           subsystem: subsystems.texts[Int(key.subsystem)],
                           level: MessageType(rawValue: Int(key.level)) ?? .default, minute: key.minute, count: count)
        }
    }

    /// The chunks to scan, handed out one at a time to the threads that call `run`, and what
    /// each thread found.
    final class Work: @unchecked Sendable {
        // Safe: what the threads share is in `state`, a `Mutex`; a source (and its connection)
        // is handed to one thread only, once, and `sources` itself is never written.
        private struct State {
            var next = 0
            var counts: [Int64]
            var failures: [(index: Int, error: any Error)] = []
            var scans: [StatisticsScan] = []
        }

        private let sources: [SummarySource]
        private let state: Mutex<State>

        init(_ sources: [SummarySource]) {
            self.sources = sources
            state = Mutex(State(counts: Array(repeating: 0, count: sources.count)))
        }

        /// Scans chunks until none is left (or one failed).
        func run() {
            var scan = StatisticsScan()
            while let index = take() {
                do {
                    let count = try scan.scan(sources[index])
                    state.withLock { $0.counts[index] = count }
                } catch {
                    state.withLock { $0.failures.append((index, error)) }
                }
            }
            state.withLock { $0.scans.append(scan) }
        }

        private func take() -> Int? {
            let count = sources.count
            return state.withLock { state in
                guard state.failures.isEmpty, state.next < count else { return nil }
                state.next += 1
                return state.next - 1
            }
        }

        /// Each chunk's record count, in the order given; rethrows the first chunk's failure.
        func recordsPerSource() throws -> [Int64] {
            let (counts, first) = state.withLock { state in
                (state.counts, state.failures.min(by: { $0.index < $1.index })?.error)
            }
            if let first { throw first }
            return counts
        }

        var finishedScans: [StatisticsScan] { state.withLock { $0.scans } }
    }
}
