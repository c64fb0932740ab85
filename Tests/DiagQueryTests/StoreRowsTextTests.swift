import DiagGenerator
import DiagModel
import DiagOutput
@testable import DiagStore
import Foundation
import Testing
import TestSupport
@testable import DiagQuery

/// `diag show` in the text styles (default, compact, syslog) and the json style over one store: lines formatted on
/// the reading threads (`StoreRows.writeLines`) and written by the printer give the bytes of
/// the printer writing each decoded record, the default style's closing counts included, on
/// chunks apart in time and on chunks that overlap or are not sealed (merged by time).
@Suite struct StoreRowsTextTests {
    static let records = StoreRowsTests.records

    /// What a printer on a file writes, given `body`.
    private func printed(_ style: OutputStyle, colored: Bool, _ body: (RecordPrinter) throws -> Void) throws -> String {
        let folder = try TemporaryDirectory("store-rows-text-out")
        let path = folder.file("out.txt").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        let printer = RecordPrinter(style: style, zone: .utc, colored: colored, sink: OutputSink(descriptor: descriptor, capacity: 4096))
        printer.begin()
        try body(printer)
        printer.finish()
        close(descriptor)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The printer's output of `records`, one `write` each.
    private func expected(_ records: [LogRecord], _ style: OutputStyle, colored: Bool) throws -> String {
        try printed(style, colored: colored) { printer in for record in records { printer.write(record) } }
    }

    /// The printer's output of the rows `rows` formats in `style` on `threads` threads, and how
    /// many records the printer counted.
    private func formatted(_ rows: StoreRows, _ style: OutputStyle, colored: Bool, threads: Int) throws -> (text: String, count: Int) {
        var count = 0
        let text = try printed(style, colored: colored) { printer in
            if style == .json {
                try rows.writeLines(style: .json, threads: threads, offsets: { { _ in 0 } }) { elements, records, _ in
                    printer.writeJSONElements(elements, count: records)
                }
            } else {
                let format = try #require(printer.lineFormat)
                try rows.writeLines(style: .text(format), threads: threads, offsets: { { _ in 0 } }) { lines, records, kinds in
                    printer.writeLines(lines, count: records, kinds: kinds)
                }
            }
            count = printer.count
        }
        return (text, count)
    }

    static let styles: [(OutputStyle, Bool)] = [(.default, false), (.default, true), (.compact, true), (.syslog, false), (.json, false)]

    @Test(arguments: [1, 2, 3])
    func chunksApartInTimeGiveThePrintersLines(threads: Int) throws {
        let folder = try TemporaryDirectory("store-rows-text")
        let url = try StoreRowsTests.store(folder)
        let selection = RecordSelection(includeInfo: true, includeDebug: true)
        let all = Self.records.filter { selection.matches($0) }.sorted { $0.timestamp < $1.timestamp }
        #expect(Set(all.map { SummaryKind($0) }).count >= 3, "the records count for several kinds of the summary")
        for (style, colored) in Self.styles {
            let rows = try #require(try LogQuery(selection: selection).openStoreRows([.store(url)]))
            let (text, count) = try formatted(rows, style, colored: colored, threads: threads)
            #expect(count == all.count)
            #expect(text == (try expected(all, style, colored: colored)), "\(style), colored \(colored)")
        }
        // A message residual, which the reading threads check.
        let condition = QueryCondition(
            residual: { $0.eventMessage.contains("ed") }, messageResidual: { String(decoding: $0, as: UTF8.self).contains("ed") },
            matches: { $0.eventMessage.contains("ed") })
        let rows = try #require(try LogQuery(selection: selection, condition: condition).openStoreRows([.store(url)]))
        let selected = all.filter { condition.matches($0) }
        #expect(selected.count > 100 && selected.count < all.count)
        #expect(try formatted(rows, .default, colored: false, threads: threads).text == (try expected(selected, .default, colored: false)))
    }

    @Test(arguments: [1, 2, 3])
    func overlappingAndUnsealedChunksGiveThePrintersLines(threads: Int) throws {
        let folder = try TemporaryDirectory("store-rows-text-overlap")
        let (url, expectedRecords, writer) = try OverlappingScanTests.store(folder)
        defer { try? writer.close() }
        let selection = RecordSelection(includeInfo: true, includeDebug: true)
        let all = expectedRecords.filter { selection.matches($0) }
        for (style, colored) in Self.styles {
            let rows = try #require(try LogQuery(selection: selection).openStoreRows([.store(url)]))
            #expect(try formatted(rows, style, colored: colored, threads: threads).text == (try expected(all, style, colored: colored)),
                    "\(style), colored \(colored)")
        }
        // A limit cuts the merged lines, and the closing counts count only the lines written.
        for limit in [1, 777, 20_000] {
            let rows = StoreRows(cursor: try LogStore.openForReading(at: url).records(filter: StoreFilter(limit: limit)), messageResidual: nil)
            let (text, count) = try formatted(rows, .default, colored: false, threads: threads)
            #expect(count == limit)
            #expect(text == (try expected(Array(expectedRecords.prefix(limit)), .default, colored: false)), "limit \(limit)")
        }
    }

    @Test func theJSONStylesHaveNoLines() {
        #expect(RecordLineFormat(style: .json) == nil)
        #expect(RecordLineFormat(style: .ndjson) == nil)
        #expect(RecordLineFormat(style: .syslog, hostName: "host")?.hostName == "host")
    }

    @Test func noRowGivesAnEmptyJSONArray() throws {
        let folder = try TemporaryDirectory("store-rows-json-empty")
        let url = try StoreRowsTests.store(folder)
        let condition = QueryCondition(residual: { _ in false }, messageResidual: { _ in false }, matches: { _ in false })
        let rows = try #require(try LogQuery(condition: condition).openStoreRows([.store(url)]))
        #expect(try formatted(rows, .json, colored: false, threads: 2) == ("[]\n", 0))
    }

    /// A line reads only the columns it shows (`StoredRow.lineRecord()`), checked as a whole
    /// record's are: a level no record holds ends the output after the rows before it, with
    /// the row named; a metadata text that is not JSON, which no line shows, does not stop the
    /// lines (the json styles, which show it, refuse it).
    @Test(arguments: [1, 2])
    func aLineChecksTheColumnsItShows(threads: Int) throws {
        let folder = try TemporaryDirectory("store-rows-text-damaged")
        let url = try StoreRowsTests.store(folder)
        let third = try StoreRowsTests.thirdChunk(of: url)
        let selection = RecordSelection(includeInfo: true, includeDebug: true)
        try Database(path: third).execute("UPDATE records SET metadata = '{\"unclosed' WHERE id = 100")
        let all = Self.records.filter { selection.matches($0) }.sorted { $0.timestamp < $1.timestamp }
        let rows = try #require(try LogQuery(selection: selection).openStoreRows([.store(url)]))
        #expect(try formatted(rows, .compact, colored: false, threads: threads).count == all.count)
        let json = try #require(try LogQuery(selection: selection).openStoreRows([.store(url)]))
        #expect(throws: QueryError.self) { try formatted(json, .json, colored: false, threads: threads) }

        try Database(path: third).execute("UPDATE records SET messageType = 9 WHERE id = 300")
        let damaged = try #require(try LogQuery(selection: selection).openStoreRows([.store(url)]))
        var count = 0
        let error = #expect(throws: QueryError.self) {
            try damaged.writeLines(style: .text(try #require(RecordLineFormat(style: .default))), threads: threads,
                                   offsets: { { _ in 0 } }) { _, records, _ in count += records }
        }
        #expect(error?.description.contains("record id 300: column messageType holds 9") == true)
        #expect(count == 2 * 700 + 299)
    }
}
