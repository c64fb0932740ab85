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
    private struct GroupKey: Hashable {
        var process: Int32
        var sender: Int32
        var subsystem: Int32
        var level: Int64
        var minute: Int64
    }

    /// Counts every chunk of a snapshot in one plain scan each, grouped in a hash table:
    /// SQLite's GROUP BY over five columns sorts the whole table through temp files. Texts are
    /// interned from SQLite's bytes, so a record costs no `String`, and the records of the minute
    /// being read are tallied apart (`MinuteTally`), so most records cost no hashing either.
    static func count(_ sources: [SummarySource]) throws -> BundleStatistics {
        var statistics = BundleStatistics()
        var groups: [GroupKey: Int64] = [:]
        var processes = TextInterner(), senders = TextInterner(), subsystems = TextInterner()
        var tally = MinuteTally()
        for source in sources {
            var recordCount: Int64 = 0
            defer { statistics.recordsPerSource.append(recordCount) }
            do {
                let database = try source.open()
                let statement = try database.prepare("SELECT process, sender, subsystem, messageType, timestamp FROM records")
                while try statement.step() {
                    recordCount += 1
                    let timestamp = statement.int64(at: 4)
                    let remainder = timestamp % nanosecondsPerMinute
                    let key = GroupKey(process: statement.withTextBytes(at: 0) { processes.number($0) },
                                       sender: statement.withTextBytes(at: 1) { senders.number($0) },
                                       subsystem: statement.withTextBytes(at: 2) { subsystems.number($0) },
                                       level: statement.int64(at: 3),
                                       minute: timestamp - (remainder < 0 ? remainder + nanosecondsPerMinute : remainder))
                    if !tally.add(key) {
                        tally.flush(into: &groups)
                        tally.add(key)
                    }
                }
            } catch {
                throw BundleError.failure("cannot count the records of \(source.name): \(error)")
            }
        }
        tally.flush(into: &groups)
        for (key, count) in groups {
            statistics.add(process: processes.texts[Int(key.process)], sender: senders.texts[Int(key.sender)],
                           subsystem: subsystems.texts[Int(key.subsystem)],
                           level: MessageType(rawValue: Int(key.level)) ?? .default, minute: key.minute, count: count)
        }
        return statistics
    }

    /// The counts of the minute being read, in a short list searched from the entry after the
    /// one counted last: records come in time order, so a minute holds few distinct keys, and
    /// interleaved components tend to repeat their order.
    private struct MinuteTally {
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
            var stream = try ChunkErrorStream.merged(sources)
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
