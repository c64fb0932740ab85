import DiagModel
import DiagOutput
import DiagStore
import Foundation

/// The counts of `summaries/stats.json` and what the report draws: records per process, sender,
/// subsystem, level and minute, and per process per minute per level.
struct BundleStatistics {
    static let nanosecondsPerMinute: Int64 = 60_000_000_000
    static let unknown = "(none)"

    var total: Int64 = 0
    var levels: [MessageType: Int64] = [:]
    var processes: [String: Int64] = [:]
    var senders: [String: Int64] = [:]
    var subsystems: [String: Int64] = [:]
    var minutes: [Int64: Int64] = [:]
    /// process → minute → level → count.
    var timeline: [String: [Int64: [MessageType: Int64]]] = [:]
    /// Records of each source counted, in the order given.
    var recordsPerSource: [Int64] = []

    /// Process, sender and subsystem by their `TextInterner` numbers.
    struct GroupKey: Hashable {
        var process: Int32
        var sender: Int32
        var subsystem: Int32
        var level: Int64
        var minute: Int64
    }

    /// Counts every chunk of a snapshot in one plain scan each, grouped in a hash table:
    /// SQLite's GROUP BY over five columns sorts the whole table through temp files. The chunks
    /// are shared out among one thread per core (`StatisticsScan`): on a busy machine, one thread
    /// scanning them all was the last part of a collection to finish.
    static func count(_ sources: [SummarySource]) throws -> BundleStatistics {
        let work = StatisticsScan.Work(sources)
        let threads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, sources.count))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in work.run() }
        var statistics = BundleStatistics()
        statistics.recordsPerSource = try work.recordsPerSource()
        for var scan in work.finishedScans { scan.add(to: &statistics) }
        return statistics
    }

    /// The counts of the minute being read, in a short list searched from the entry after the
    /// one counted last: records come in time order, so a minute holds few distinct keys, and
    /// interleaved components tend to repeat their order.
    struct MinuteTally {
        static let capacity = 64
        var minute = Int64.min
        var keys: [GroupKey] = []
        var counts: [Int64] = []
        var hint = 0

        /// Counts `key`; false (nothing counted) when it is of another minute or the list is
        /// full. An empty list takes any key.
        @discardableResult
        mutating func add(_ key: GroupKey) -> Bool {
            if keys.isEmpty { minute = key.minute }
            guard key.minute == minute else { return false }
            var index = hint
            for _ in 0..<keys.count {
                if keys[index] == key {
                    counts[index] += 1
                    hint = index + 1 == keys.count ? 0 : index + 1
                    return true
                }
                index = index + 1 == keys.count ? 0 : index + 1
            }
            guard keys.count < Self.capacity else { return false }
            keys.append(key)
            counts.append(1)
            hint = 0
            return true
        }

        mutating func flush(into groups: inout [GroupKey: Int64]) {
            for (key, count) in zip(keys, counts) { groups[key, default: 0] += count }
            keys.removeAll(keepingCapacity: true)
            counts.removeAll(keepingCapacity: true)
            hint = 0
        }
    }

    mutating func add(process: String?, sender: String?, subsystem: String?, level: MessageType, minute: Int64, count: Int64) {
        let process = process ?? Self.unknown
        total += count
        levels[level, default: 0] += count
        processes[process, default: 0] += count
        senders[sender ?? Self.unknown, default: 0] += count
        subsystems[subsystem ?? Self.unknown, default: 0] += count
        minutes[minute, default: 0] += count
        timeline[process, default: [:]][minute, default: [:]][level, default: 0] += count
    }

    /// The record counts the manifest carries: `total` and one per level name.
    var recordCounts: [String: Int64] {
        var counts = ["total": total]
        for level in MessageType.allCases { counts[level.name] = levels[level] ?? 0 }
        return counts
    }

    func jsonData() throws -> Data {
        func minuteKey(_ minute: Int64) -> String { Timestamp.formatISO8601(nanoseconds: minute, fractionDigits: 0) }
        let object: [String: Any] = [
            "total": total,
            "levels": Dictionary(uniqueKeysWithValues: MessageType.allCases.map { ($0.name, levels[$0] ?? 0) }),
            "processes": processes, "senders": senders, "subsystems": subsystems,
            "minutes": Dictionary(uniqueKeysWithValues: minutes.map { (minuteKey($0.key), $0.value) }),
            "timeline": timeline.mapValues { perMinute in
                Dictionary(uniqueKeysWithValues: perMinute.map { minute, levels in
                    (minuteKey(minute), Dictionary(uniqueKeysWithValues: levels.map { ($0.key.name, $0.value) }))
                })
            },
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }
}

/// `summaries/errors.txt`: every Error and Fault of the store, in `log show`'s default style,
/// streamed to a file; the first few are kept for the report.
struct ErrorDigest {
    static let reportLimit = 300

    var count = 0
    var firstRecords: [LogRecord] = []

    static func write(_ sources: [SummarySource], to file: URL, hostName: String) throws -> ErrorDigest {
        var digest = ErrorDigest()
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BundleError.failure("cannot create \(file.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let sink = OutputSink(descriptor: descriptor)
        let printer = RecordPrinter(style: .default, zone: .utc, hostName: hostName, sink: sink)
        printer.begin()
        do {
            var stream = try SnapshotChunkStream.merged(sources, where: SnapshotChunkStream.errors)
            while let record = try stream.next() {
                printer.write(record)
                digest.count += 1
                if digest.firstRecords.count < reportLimit { digest.firstRecords.append(record) }
            }
        } catch {
            throw BundleError.failure("cannot read the errors of the snapshot: \(error)")
        }
        printer.finish()
        if let failure = sink.failure {
            throw BundleError.failure("cannot write \(file.path): \(String(cString: strerror(failure)))")
        }
        return digest
    }
}
