import CSQLite
import Dispatch
import Foundation
import Glibc
import Synchronization
import DiagModel

/// One group of `groupedCounts`: its key (NULL for records without the field), how many records,
/// and the UTF-8 bytes of their `eventMessage`.
public struct GroupCount: Sendable, Hashable {
    public var key: SQLValue
    public var count: Int64
    public var messageBytes: Int64

    public init(key: SQLValue, count: Int64, messageBytes: Int64) {
        self.key = key
        self.count = count
        self.messageBytes = messageBytes
    }
}

extension LogStore {
    /// Counts per group over the SQL part of `filter`, summed across chunks; sorted by count,
    /// largest first, then by key (`allGroupedCounts`, of which it is one grouping).
    public func groupedCounts(by grouping: RecordGrouping, filter: StoreFilter = StoreFilter()) throws -> [GroupCount] {
        try allGroupedCounts(filter: filter)[grouping] ?? []
    }

    /// The counts of every grouping over the SQL part of `filter`, summed across chunks, each
    /// sorted by count, largest first, then by key: one read of each chunk's selected rows,
    /// the keys and message lengths counted as they come. An aggregate query per grouping
    /// (`GROUP BY` the key) read every row six times, and the groupings with an index walked it
    /// and fetched each row for its message's length wherever it lay in the file: `diag stats`
    /// of 1M imported records took 4.3 s, against 0.5 s for `diag show` to print them all.
    public func allGroupedCounts(filter: StoreFilter = StoreFilter(), threads: Int = ProcessInfo.processInfo.activeProcessorCount) throws -> [RecordGrouping: [GroupCount]] {
        let chunks = chunksToRead(filter)
        let trigrams = TrigramChoice()
        let next = Atomic<Int>(0)
        // Each thread counts whole chunks into its own tallies; the first failing chunk (in the
        // store's order) is the error, as a read one chunk after another would have met it.
        let done = Mutex<(tallies: [GroupTallies], failure: (index: Int, error: any Error)?)>(([], nil))
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, chunks.count))) { _ in
            var tallies = GroupTallies()
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < chunks.count, done.withLock({ $0.failure == nil }) else { break }
                do {
                    try readChunk(chunks[index]) { database, tables, path in
                        let condition = ChunkCondition(filter: filter, chunk: chunks[index], tables: tables, database: database,
                                                       path: path, trigrams: trigrams)
                        let statement = try database.prepare("SELECT \(GroupTallies.columns), length(CAST(eventMessage AS BLOB)) FROM records\(condition.sql)")
                        try statement.bind(condition.bindings)
                        while try statement.step() { tallies.add(statement) }
                    }
                } catch {
                    done.withLock { state in
                        if state.failure.map({ index < $0.index }) ?? true { state.failure = (index, error) }
                    }
                    break
                }
            }
            done.withLock { $0.tallies.append(tallies) }
        }
        let (parts, failure) = done.withLock { ($0.tallies, $0.failure) }
        if let failure { throw failure.error }
        var tallies = GroupTallies()
        for part in parts { tallies.merge(part) }
        var result: [RecordGrouping: [GroupCount]] = [:]
        for grouping in RecordGrouping.allCases {
            result[grouping] = tallies.groups(grouping).sorted { left, right in
                if left.count != right.count { return left.count > right.count }
                return Self.keyOrder(left.key, right.key)
            }
        }
        return result
    }

    private static func keyOrder(_ left: SQLValue, _ right: SQLValue) -> Bool {
        switch (left, right) {
        case (.int(let a), .int(let b)): a < b
        case (.text(let a), .text(let b)): a < b
        case (.double(let a), .double(let b)): a < b
        case (.null, _): false
        case (_, .null): true
        default: "\(left)" < "\(right)"
        }
    }
}

/// The running counts of `allGroupedCounts`, one table per grouping. A text key is looked up by
/// its bytes against the previous row's for the same column first: rows of one process, sender
/// or minute come in runs, and a run costs no `String` and no hashing.
private struct GroupTallies: Sendable {
    private struct Figures: Sendable {
        var count: Int64 = 0
        var bytes: Int64 = 0
    }

    /// The statement's key columns, one per grouping in this order (the minute is computed from
    /// the time); the message length comes after them.
    private static let groupings = RecordGrouping.allCases
    static let columns = groupings.map { $0 == .minute ? "timestamp" : $0.rawValue }.joined(separator: ", ")
    private static let lengthColumn = Int32(groupings.count)

    private var tables: [[SQLValue: Int]] = Array(repeating: [:], count: groupings.count)
    private var figures: [[Figures]] = Array(repeating: [], count: groupings.count)
    /// Per column: the previous row's key bytes (text) or value, and its slot in `figures`.
    private var lastText: [[UInt8]] = Array(repeating: [], count: groupings.count)
    private var lastSlot: [Int] = Array(repeating: -1, count: groupings.count)
    private var lastInteger: [Int64] = Array(repeating: 0, count: groupings.count)

    mutating func add(_ statement: Statement) {
        let bytes = statement.int64(at: Self.lengthColumn)
        for column in Self.groupings.indices {
            let slot = slot(statement, column: Int32(column))
            figures[column][slot].count += 1
            figures[column][slot].bytes += bytes
        }
    }

    private mutating func slot(_ statement: Statement, column: Int32) -> Int {
        let index = Int(column)
        let handle = statement.handle
        let type = sqlite3_column_type(handle, column)
        let isMinute = Self.groupings[index] == .minute
        if isMinute || type == SQLITE_INTEGER {
            // The minute as the aggregate SQL computed it: from the time read as an integer.
            guard type != SQLITE_NULL else { return uncached(.null, index) }
            let raw = sqlite3_column_int64(handle, column)
            let value = isMinute ? RecordGrouping.minuteStart(of: raw) : raw
            if lastSlot[index] >= 0, lastText[index].isEmpty, lastInteger[index] == value { return lastSlot[index] }
            let slot = lookUp(.int(value), index)
            lastText[index] = []
            lastInteger[index] = value
            lastSlot[index] = slot
            return slot
        }
        guard type == SQLITE_TEXT else {
            // NULL, or a real or a blob in a chunk made elsewhere: keyed as the aggregate SQL keyed it.
            return uncached(statement.value(at: column), index)
        }
        let text = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        if count > 0, let text, lastSlot[index] >= 0, lastText[index].count == count,
           lastText[index].withUnsafeBytes({ memcmp($0.baseAddress!, text, count) == 0 }) {
            return lastSlot[index]
        }
        let slot = lookUp(statement.value(at: column), index)
        if count > 0, let text {
            lastText[index] = Array(UnsafeBufferPointer(start: text, count: count))
            lastSlot[index] = slot
        } else {
            lastSlot[index] = -1
        }
        return slot
    }

    /// The slot of a key the next row does not compare against.
    private mutating func uncached(_ key: SQLValue, _ index: Int) -> Int {
        lastSlot[index] = -1
        return lookUp(key, index)
    }

    private mutating func lookUp(_ key: SQLValue, _ index: Int) -> Int {
        if let slot = tables[index][key] { return slot }
        let slot = figures[index].count
        tables[index][key] = slot
        figures[index].append(Figures())
        return slot
    }

    /// Adds another thread's counts.
    mutating func merge(_ other: GroupTallies) {
        for index in 0..<Self.groupings.count {
            for (key, slot) in other.tables[index] {
                let mine = lookUp(key, index)
                figures[index][mine].count += other.figures[index][slot].count
                figures[index][mine].bytes += other.figures[index][slot].bytes
            }
        }
    }

    func groups(_ grouping: RecordGrouping) -> [GroupCount] {
        guard let index = Self.groupings.firstIndex(of: grouping) else { return [] }
        return tables[index].map { key, slot in
            GroupCount(key: key, count: figures[index][slot].count, messageBytes: figures[index][slot].bytes)
        }
    }
}
