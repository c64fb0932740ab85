import DiagPatterns
import Foundation
import Testing
import TestSupport

/// Grouping accuracy on the loghub samples with ground truth (Tests/Fixtures/loghub/structured):
/// a line counts only when the lines of its pattern are exactly the lines of its true event.
/// One default setting for every dataset. Benchmarks/patterns.sh prints the same figures beside
/// Drain and Brain.
@Suite struct GroupingAccuracyTests {
    static let datasets = ["Apache", "BGL", "HDFS", "Hadoop", "HealthApp", "OpenStack", "Spark", "Zookeeper"]

    /// The Content and EventTemplate columns of a loghub structured CSV (RFC 4180 quoting).
    static func read(_ dataset: String) throws -> [(content: String, event: String)] {
        let url = BuiltProducts.fixturesDirectory.appendingPathComponent("loghub/structured/\(dataset)_2k.log_structured.csv")
        let text = try String(contentsOf: url, encoding: .utf8)
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        while let scalar = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    let next = iterator.next()
                    if next == "\"" { field.unicodeScalars.append("\"") } else { quoted = false; pending = next }
                } else {
                    field.unicodeScalars.append(scalar)
                }
            } else if scalar == "\"" {
                quoted = true
            } else if scalar == "," {
                row.append(field); field = ""
            } else if scalar == "\n" {
                row.append(field); field = ""
                rows.append(row); row = []
            } else if scalar != "\r" {
                field.unicodeScalars.append(scalar)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        let header = try #require(rows.first)
        let content = try #require(header.firstIndex(of: "Content"))
        let event = try #require(header.firstIndex(of: "EventTemplate"))
        return rows.dropFirst().map { ($0[content], $0[event]) }
    }

    static func accuracy(_ rows: [(content: String, event: String)]) -> Double {
        var miner = PatternMiner<NoSummary>()
        for row in rows { miner.add(row.content) }
        let patterns = miner.finish()
        var matcher = PatternMatcher(patterns)
        let predicted = rows.map { matcher.match($0.content) ?? -1 }
        var truthMembers: [String: Set<Int>] = [:]
        var predictedMembers: [Int: Set<Int>] = [:]
        for (line, row) in rows.enumerated() {
            truthMembers[row.event, default: []].insert(line)
            predictedMembers[predicted[line], default: []].insert(line)
        }
        let right = rows.indices.filter { truthMembers[rows[$0].event] == predictedMembers[predicted[$0]] }.count
        return Double(right) / Double(rows.count)
    }

    @Test func meanGroupingAccuracyIsAtLeast95PercentWithOneSetting() throws {
        var total = 0.0
        for dataset in Self.datasets {
            let rows = try Self.read(dataset)
            #expect(rows.count == 2000, "\(dataset)")
            let accuracy = Self.accuracy(rows)
            // Tuned Drain reaches 0.73 (OpenStack) to 1.0 on these samples; no dataset may fall far.
            #expect(accuracy >= 0.95, "\(dataset): \(accuracy)")
            total += accuracy
        }
        #expect(total / Double(Self.datasets.count) >= 0.95)
    }
}
