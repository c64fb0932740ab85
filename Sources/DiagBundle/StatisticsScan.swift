import DiagModel
import DiagStore
import Foundation

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
        // Safe: `next`, `counts`, `failures` and `scans` are read and written under `lock`; a
        // source (and its connection) is handed to one thread only, once.
        private let lock = NSLock()
        private let sources: [SummarySource]
        private var next = 0
        private var counts: [Int64]
        private var failures: [(index: Int, error: any Error)] = []
        private var scans: [StatisticsScan] = []

        init(_ sources: [SummarySource]) {
            self.sources = sources
            counts = Array(repeating: 0, count: sources.count)
        }

        /// Scans chunks until none is left (or one failed).
        func run() {
            var scan = StatisticsScan()
            while let index = take() {
                do {
                    let count = try scan.scan(sources[index])
                    lock.withLock { counts[index] = count }
                } catch {
                    lock.withLock { failures.append((index, error)) }
                }
            }
            lock.withLock { scans.append(scan) }
        }

        private func take() -> Int? {
            lock.withLock {
                guard failures.isEmpty, next < sources.count else { return nil }
                next += 1
                return next - 1
            }
        }

        /// Each chunk's record count, in the order given; rethrows the first chunk's failure.
        func recordsPerSource() throws -> [Int64] {
            try lock.withLock {
                if let first = failures.min(by: { $0.index < $1.index }) { throw first.error }
                return counts
            }
        }

        var finishedScans: [StatisticsScan] { lock.withLock { scans } }
    }
}
