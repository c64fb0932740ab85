import DiagCommandLine
import DiagImport
import DiagModel
import DiagOutput
import DiagQuery
import Foundation

/// The filters of `diag show` as `diag patterns` and `diag diff` take them, checked, and a
/// read of every record they select from some sources.
struct RecordFilter {
    var predicate: String?
    var predicateFile: String?
    var variables: [String: String] = [:]
    var window: (start: Int64?, end: Int64?) = (nil, nil)
    var info = false
    var debug = false
    var processes: [String] = []
    var senders: [String] = []
    var zone = DisplayZone.utc
    var year: Int?
    /// `--last`, counted from the newest record of the sources once they are known (as show does).
    var last: LastArgument?

    /// Checks the options' values together, as `diag show` does.
    init(predicate: String?, predicateFile: String?, variables: [String], start: String?, end: String?, last: String?,
         info: Bool, debug: Bool, processes: [String], senders: [String], timezone: String?, year: Int?,
         sources: [String] = []) throws {
        if predicate != nil, predicateFile != nil {
            throw ValidationError("--predicate and --predicate-file cannot be used together")
        }
        if last != nil, start != nil {
            throw ValidationError("--last and --start cannot be used together")
        }
        if let year, !(1970...9999).contains(year) {
            throw ValidationError("The value '\(year)' is invalid for '--year <year>'; accepted: 1970 to 9999")
        }
        self.predicate = predicate
        self.predicateFile = predicateFile
        self.variables = try VariableArguments.parse(variables)
        self.info = info
        self.debug = debug
        self.processes = processes
        self.senders = senders
        self.year = year
        zone = try TimezoneArgument.zone(timezone, sources: sources)
        if let start { window.start = try TimeArgument.instant(start, option: "--start", zone: zone) }
        if let end { window.end = try TimeArgument.instant(end, option: "--end", zone: zone) }
        self.last = try last.map(LastArgument.parse)
        _ = try TimeWindow.checked(start: window.start, end: window.end)
    }

    /// Calls `body` with every selected record of `sources` (SOURCE arguments) in time order;
    /// returns how many lines of files were refused, each reported on stderr.
    func forEachRecord(of sources: [String], _ body: (LogRecord) throws -> Void) throws -> Int {
        let (query, querySources, options) = try self.query(of: sources)
        do {
            let results = try query.open(
                querySources, bundleOpener: SourceArguments.bundleOpener, options: options
            ) { issue in
                StandardStream.error.write("\(issue)\n")
            }
            while let record = try results.next() { try body(record) }
            return results.refusedCount
        } catch let error as QueryError {
            throw error.isBadInput ? InputError(error.message) as any Error : RuntimeError(error.message)
        }
    }
}

extension RecordFilter {
    /// The query of the filters over `sources` (SOURCE arguments), resolved.
    func query(of sources: [String]) throws -> (query: LogQuery, sources: [QuerySource], options: ImportOptions) {
        let querySources = try SourceArguments.resolve(sources)
        let bound = try SourceArguments.variables(for: querySources, overriding: variables)
        let text = try predicateFile.map(PredicateFile.read) ?? predicate
        let condition = try text.map { try PredicateCondition.make($0, variables: bound, zone: zone) }
        let options = ImportOptions(year: year, timeZone: zone.timeZone)
        var window = self.window
        if let last { window.start = try last.start(sources: querySources, live: sources.isEmpty, options: options) }
        let selection = RecordSelection(
            start: window.start, end: window.end, includeInfo: info, includeDebug: debug,
            processes: processes.map(RecordSelection.ProcessSelector.init), senders: senders)
        return (LogQuery(selection: selection, condition: condition), querySources, options)
    }
}

/// The output styles of `diag patterns` and `diag diff`.
enum PatternStyle: String, CaseIterable, ExpressibleByArgument {
    case `default`, json, ndjson
}

/// `--pattern ID`: the form of a pattern ID, checked before any record is read.
enum PatternIDArgument {
    static func check(_ id: String) throws {
        guard id.utf8.count == 10, id.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
            throw ValidationError("The value '\(id)' is invalid for '--pattern <id>'; accepted: a pattern ID of 10 lower-case hex digits, as diag patterns shows it")
        }
    }
}
