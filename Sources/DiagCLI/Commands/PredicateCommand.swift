import DiagCommandLine
import DiagOutput
import DiagPredicate
import DiagQuery
import DiagStore
import Foundation

/// `diag predicate`: checks and explains predicates without running a query.
struct PredicateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predicate",
        abstract: "Check a predicate, or explain how a query with it runs.",
        subcommands: [PredicateCheckCommand.self, PredicateExplainCommand.self])

    func run() throws {
        throw CleanExit.helpRequest()
    }
}

/// `diag predicate check P`: exit 0 and the normalised predicate, or 65 and the error with a caret.
struct PredicateCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a predicate and print it normalised.",
        discussion: "Exits with status 0 and prints the predicate with canonical keywords, operators and quotes; a predicate that does not parse is reported with a caret under the column, and the status is 65.")

    @Argument(help: "The predicate (NSPredicate format, as log show --predicate).", valueName: "predicate")
    var predicate: String

    @Option(name: "var", help: "A value for $NAME in the predicate.", valueName: "name=value")
    var variables: [String]

    func run() throws {
        let parsed = try PredicateArguments.parse(predicate, variables: variables)
        StandardStream.output.write(parsed.description + "\n")
    }
}

/// `diag predicate explain P [SOURCE]`: what goes to SQL, which index serves it, what Swift checks.
struct PredicateExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain how a query with this predicate runs.",
        discussion: "Prints the SQL condition and its bound values, the indexes that can serve it, the time window and message search used to skip chunks and records, and what is checked in Swift on each record. With a SOURCE, also says how much of it the query reads.")

    @Argument(help: "The predicate (NSPredicate format, as log show --predicate).", valueName: "predicate")
    var predicate: String

    @Argument(help: "A store directory, bundle or log file to explain the query against.", valueName: "source")
    var sources: [String]

    @Option(name: "var", help: "A value for $NAME in the predicate.", valueName: "name=value")
    var variables: [String]

    func validate() throws {
        if sources.count > 1 {
            throw ValidationError("explain takes at most one SOURCE; got \(sources.count)")
        }
    }

    func run() throws {
        // Without a SOURCE the plan alone is explained; the default store is not consulted.
        let resolved = sources.isEmpty ? [] : try SourceArguments.resolve(sources)
        let defaults = try SourceArguments.variables(for: resolved, overriding: [:])
        let parsed = try PredicateArguments.parse(predicate, variables: variables, defaults: defaults)
        let plan = parsed.plan()
        var lines = ["predicate: \(parsed.description)"] + plan.explanation
        if let source = resolved.first {
            lines += try sourceLines(source, plan: plan)
        }
        StandardStream.output.write(lines.joined(separator: "\n") + "\n")
    }

    private func sourceLines(_ source: QuerySource, plan: QueryPlan) throws -> [String] {
        switch source {
        case .store(let url):
            let store: LogStore
            do {
                store = try LogStore.openForReading(at: url)
            } catch let error as StoreError {
                throw RuntimeError(error.description)
            }
            let chunks = store.info.chunks
            try store.close()
            let range = plan.timeRange
            let read = chunks.filter { chunk in
                guard !range.isEmpty else { return false }
                if let start = range.start, let newest = chunk.newestTimestamp, newest < start { return false }
                if let end = range.end, let oldest = chunk.oldestTimestamp, oldest >= end { return false }
                return true
            }
            let records = read.reduce(Int64(0)) { $0 + $1.recordCount }
            var lines = ["source: store \(url.path): reads \(read.count) of \(chunks.count) chunk\(chunks.count == 1 ? "" : "s") (\(records) records before SQL)"]
            if !plan.messageSearch.isEmpty {
                let indexed = read.filter(\.searchIndex).count
                lines.append("  message search index in \(indexed) of those \(read.count) chunks (diag index builds the rest)")
            }
            return lines
        case .bundle(let path):
            guard let opener = SourceArguments.bundleOpener else {
                throw RuntimeError("\(path): this build of diag cannot read bundles")
            }
            let opened = try opener.openStore(inBundle: path)
            return ["source: bundle \(path), its store snapshot:"] + (try sourceLines(.store(opened.storeURL), plan: plan)).map { "  " + $0 }
        case .file(let path):
            return ["source: log file \(path): every record is read and the whole predicate is checked in Swift (SQL applies to stores only)"]
        case .appleLog(let path):
            return ["source: Apple unified logs \(path): every record is read and the whole predicate is checked in Swift (SQL applies to stores only)"]
        }
    }
}

enum PredicateArguments {
    /// Parses the predicate with its `--var` values; a bad one is bad input (exit 65) with the caret.
    static func parse(_ text: String, variables: [String], defaults: [String: String] = [:]) throws -> DiagPredicate.Predicate {
        let bound = defaults.merging(try VariableArguments.parse(variables)) { _, given in given }
        do {
            return try DiagPredicate.Predicate.parse(text, variables: bound, dateZone: DateLiteralZone(DisplayZone.fromEnvironment()))
        } catch {
            throw InputError(error.description)
        }
    }
}
