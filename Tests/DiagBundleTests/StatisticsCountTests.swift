@testable import DiagBundle
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

/// `BundleStatistics.count` against a plain count of the same rows, on inputs that defeat its
/// shortcuts: many keys in one minute, times out of order and before 1970, NULL texts, texts
/// that look alike, several chunks.
struct StatisticsCountTests {
    typealias Row = (process: String?, sender: String?, subsystem: String?, level: MessageType, timestamp: Int64)

    private func makeChunk(_ path: String, _ rows: [Row]) throws {
        let database = try Database(path: path)
        try database.execute("CREATE TABLE records (id INTEGER PRIMARY KEY, process TEXT, sender TEXT, subsystem TEXT, messageType INTEGER NOT NULL, timestamp INTEGER NOT NULL)")
        try database.execute("BEGIN")
        for row in rows {
            try database.execute("INSERT INTO records (process, sender, subsystem, messageType, timestamp) VALUES (?, ?, ?, ?, ?)",
                                 [row.process, row.sender, row.subsystem, Int64(row.level.rawValue), row.timestamp])
        }
        try database.execute("COMMIT")
    }

    @Test func countsMatchAPlainCountOfTheRows() throws {
        let folder = try TemporaryDirectory()
        let minute: Int64 = 60_000_000_000
        let base: Int64 = 1_795_945_200 * 1_000_000_000
        let levels: [MessageType] = [.default, .info, .debug, .error, .fault]
        var chunks: [[Row]] = [[], []]
        for index in 0..<6_000 {
            // 150 processes in the first minutes, then a few, then times that jump back and forth.
            let process: String? = index % 17 == 0 ? nil : (index < 2_000 ? "p\(index % 150)" : ["ab", "ba", "abc", "acb"][index % 4])
            let offset: Int64 = index < 4_000 ? Int64(index) * 50_000_000 : (index % 2 == 0 ? -Int64(index) * minute : Int64(index % 7) * minute)
            let row: Row = (process, index % 5 == 0 ? nil : "Sender\(index % 3)", index % 11 == 0 ? "" : "com.example.\(index % 4)",
                            levels[index % levels.count], (index >= 4_000 && index % 3 == 0 ? -base : base) + offset)
            chunks[index % 2].append(row)
        }
        var sources: [SummarySource] = []
        for (number, rows) in chunks.enumerated() {
            let path = folder.file("\(number).chunk.sqlite").path
            try makeChunk(path, rows)
            sources.append(.file(path))
        }
        let counted = try BundleStatistics.count(sources)

        var expected = BundleStatistics()
        var groups: [String: (Row, Int64)] = [:]
        for row in chunks.joined() {
            let remainder = row.timestamp % minute
            let start = row.timestamp - (remainder < 0 ? remainder + minute : remainder)
            let key = "\(row.process ?? "\u{0}")|\(row.sender ?? "\u{0}")|\(row.subsystem ?? "\u{0}")|\(row.level.rawValue)|\(start)"
            groups[key, default: ((row.process, row.sender, row.subsystem, row.level, start), 0)].1 += 1
        }
        for (row, count) in groups.values {
            expected.add(process: row.process, sender: row.sender, subsystem: row.subsystem, level: row.level, minute: row.timestamp, count: count)
        }
        #expect(counted.total == 6_000)
        #expect(counted.levels == expected.levels)
        #expect(counted.processes == expected.processes)
        #expect(counted.senders == expected.senders)
        #expect(counted.subsystems == expected.subsystems)
        #expect(counted.minutes == expected.minutes)
        #expect(counted.timeline == expected.timeline)
    }

    /// The chunks are scanned on several threads; a chunk that cannot be read fails the count
    /// with its name, whichever thread met it.
    @Test func aChunkThatCannotBeReadIsNamed() throws {
        let folder = try TemporaryDirectory()
        var sources: [SummarySource] = []
        for number in 0..<4 {
            let path = folder.file("\(number).chunk.sqlite").path
            try makeChunk(path, [("p", "s", "c", .info, 1_000)])
            sources.append(.file(path))
        }
        let broken = folder.file("broken.chunk.sqlite").path
        try Data("not a database, just text that is long enough to have a header".utf8).write(to: URL(fileURLWithPath: broken))
        sources.insert(.file(broken), at: 2)
        #expect {
            _ = try BundleStatistics.count(sources)
        } throws: { error in
            "\(error)".contains("cannot count the records of \(broken)")
        }
        sources.remove(at: 2)
        let counted = try BundleStatistics.count(sources)
        #expect(counted.total == 4 && counted.recordsPerSource == [1, 1, 1, 1])
    }
}
