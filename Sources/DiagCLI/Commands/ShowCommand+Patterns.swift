import DiagCommandLine
import DiagImport
import DiagModel
import DiagOutput
import DiagPatterns
import DiagQuery

/// `diag show --patterns` and `--pattern ID`: a first pass mines the selected records' patterns,
/// a second shows the records, each with its final pattern, so that the annotation and the
/// selection by ID agree with `diag patterns` over the same records.
struct PatternAnnotatedShow {
    let query: LogQuery
    let sources: [QuerySource]
    let options: ImportOptions
    let selectedIDs: Set<String>
    /// `-n` and `-r`, applied to the records the pattern IDs select.
    var order = RecordOrder(lines: nil, reverse: false)

    /// Shows the records; lines of files that are not records are reported as `diag show` does.
    func run(printer: RecordPrinter, sink: OutputSink) throws {
        let refused: Int
        do {
            refused = try annotate(printer: printer) { issue in
                sink.flush()
                StandardStream.error.write("\(issue)\n")
            }
        } catch let error as QueryError {
            throw error.isBadInput ? InputError(error.message) as any Error : RuntimeError(error.message)
        }
        if refused > 0 {
            StandardStream.error.write("diag show: \(refused) line\(refused == 1 ? " was" : "s were") refused (not records); \(printer.count) record\(printer.count == 1 ? "" : "s") shown\n")
            throw ExitCode.dataError
        }
    }

    private func annotate(printer: RecordPrinter, report: @escaping (String) -> Void) throws -> Int {
        var miner = PatternMiner<NoSummary>()
        // The first pass needs the messages only: one store or bundle is masked on every core
        // (`PatternFeed`), with the patterns of the record loop.
        if let rows = try query.openStoreRowBlocks(sources, bundleOpener: SourceArguments.bundleOpener) {
            var feed = PatternFeed()
            try rows.forEachBlock(threads: PatternFeed.threads, MaskedRowBuilder.self) { block in
                feed.count(block, in: &miner, visit: { _ in }, update: { _, _ in })
            }
        } else {
            let learning = try query.open(sources, bundleOpener: SourceArguments.bundleOpener, options: options) { _ in }
            while let record = try learning.next() { miner.add(record.eventMessage) }
        }
        let patterns = miner.finish()
        let ids = patterns.map(\.id)
        let texts = patterns.map(\.text)
        var matcher = PatternMatcher(patterns)
        let results = try query.open(sources, bundleOpener: SourceArguments.bundleOpener, options: options) { report("\($0)") }
        printer.begin()
        defer { printer.finish() }
        // The next selected record with its pattern.
        func next() throws -> (LogRecord, id: String, text: String)? {
            while let record = try results.next() {
                let index = matcher.match(record.eventMessage)
                let id = index.map { ids[$0] } ?? PatternAnnotatedShow.overflowID
                guard selectedIDs.isEmpty || selectedIDs.contains(id) else { continue }
                return (record, id, index.map { texts[$0] } ?? PatternAnnotatedShow.overflowText)
            }
            return nil
        }
        try order.emit(next) { annotated in
            printer.pattern = (annotated.id, annotated.text)
            printer.write(annotated.0)
        }
        return results.refusedCount
    }

    /// What a record beyond the miner's cap of patterns is annotated with.
    static let overflowID = "overflow"
    static let overflowText = "(beyond the cap of patterns)"
}
