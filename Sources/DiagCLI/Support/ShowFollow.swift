import DiagCommandLine
import DiagModel
import DiagOutput
import DiagQuery
import Foundation

/// `diag show -f`: journalctl's live tail, with every filter of `show`. Shows the last records of
/// the store (10, or `-n`), then polls the store for what diagd commits after them, until
/// interrupted. It reads committed records, so Debug records diagd keeps only in memory appear
/// through `diag stream`, not here.
struct ShowFollow {
    static let defaultLines = 10
    /// How long to wait between two looks at the store.
    static let pollInterval: useconds_t = 250_000

    var query: LogQuery
    var source: QuerySource

    /// Refuses what cannot be followed: a bundle or a file does not grow, and the json style is
    /// one array that would never end.
    static func check(sources: [QuerySource], style: OutputStyle, reverse: Bool) throws -> QuerySource {
        guard sources.count == 1, case .store = sources[0] else {
            throw ValidationError("--follow reads one log store as diagd writes it (the default store, or a store directory); bundles and files do not grow")
        }
        if style == .json {
            throw ValidationError("--follow writes records as they come, and --style json is one array that must end; use --style ndjson")
        }
        if reverse { throw ValidationError("--follow and --reverse cannot be used together: new records come last") }
        return sources[0]
    }

    func run(lines: Int?, printer: RecordPrinter, sink: OutputSink) throws -> Never {
        var seen = SeenTail()
        let shown = lines ?? Self.defaultLines
        var tail: [LogRecord] = []
        // One pass: the last records to show, and where the first poll starts (after the newest).
        let first = try open(after: nil)
        try RecordOrder(lines: shown, reverse: false).emit({
            let record = try first.next()
            if let record { seen.note(record) }
            return record
        }) { tail.append($0) }
        printer.begin()
        for record in tail { printer.write(record) }
        sink.flush()
        while true {
            usleep(Self.pollInterval)
            let results = try open(after: seen.timestamp)
            var skipped = 0
            try results.forEachRemaining { record in
                // Records at the last timestamp already shown come again first: skip those.
                if record.timestamp == seen.timestamp, skipped < seen.countAtTimestamp {
                    skipped += 1
                    return
                }
                printer.write(record)
                seen.note(record)
            }
            sink.flush()
            if sink.failure != nil { throw ExitCode.success }
        }
    }

    private func open(after timestamp: Int64?) throws -> QueryResults {
        var query = self.query
        if let timestamp { query.selection.start = max(query.selection.start ?? .min, timestamp) }
        do {
            return try query.open([source], onIssue: { _ in })
        } catch let error as QueryError {
            throw error.isBadInput ? InputError(error.message) as any Error : RuntimeError(error.message)
        }
    }
}

/// The newest timestamp shown, and how many records at it, so the next poll resumes right after.
private struct SeenTail {
    var timestamp: Int64?
    var countAtTimestamp = 0

    mutating func note(_ record: LogRecord) {
        if record.timestamp == timestamp {
            countAtTimestamp += 1
        } else {
            timestamp = record.timestamp
            countAtTimestamp = 1
        }
    }
}

extension QueryResults {
    func forEachRemaining(_ body: (LogRecord) throws -> Void) throws {
        while let record = try next() { try body(record) }
    }
}
