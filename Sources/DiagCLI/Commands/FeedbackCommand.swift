import DiagBundle
import DiagCommandLine
import DiagModel
import DiagPredicate
import DiagStore
import Foundation

/// `diag feedback`: a small bundle for a bug report — only the records a predicate selects,
/// the notes, the predicate files, the store files and the report; optionally redacted.
struct FeedbackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedback",
        abstract: "Write a bundle of the records a predicate selects, with a title and notes, for a bug report.",
        discussion: """
            With --redact, user names, host names, IP and MAC addresses and e-mail addresses in the \
            records are replaced by placeholders (the same value always by the same placeholder); \
            the map from values to placeholders is written beside the bundle, never inside it.
            """)

    @Option(help: "What the report is about.")
    var title: String?
    @Option(help: "A text file of notes to include.", valueName: "file")
    var notes: String?
    @Option(help: "The records to keep, as an NSPredicate format string.")
    var predicate: String?
    @Option(name: "predicate-file", help: "A file holding the predicate.", valueName: "file")
    var predicateFile: String?
    @Flag(help: "Replace user names, host names, addresses and e-mail addresses with placeholders.")
    var redact: Bool
    @OptionGroup var bundle: BundleOptions
    @Option(name: "var", help: "NAME=VALUE for $NAME in the predicate, also recorded in the manifest.", valueName: "name=value")
    var variables: [String]
    @Option(help: TimezoneArgument.help(verb: "Read --start, --end and the predicate's dates", bundle: false))
    var timezone: String?

    func validate() throws {
        guard let title, !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("Missing expected argument '--title <title>': say what the report is about")
        }
        if predicate != nil && predicateFile != nil {
            throw ValidationError("--predicate and --predicate-file cannot be used together")
        }
    }

    func run() throws {
        let variables = try VariableArguments.parse(self.variables)
        let options = try bundle.checked(variables: self.variables, identifiers: [], timezone: timezone)
        var request = options.request(kind: .feedback)
        request.title = title
        request.redact = redact
        request.storeFiles = try BundleCommandOptions.checkedStoreFiles(bundle.storeFiles)
        if let notes { request.notes = try readText(notes, option: "--notes") }
        var text = predicate
        if let predicateFile {
            let contents = try readText(predicateFile, option: "--predicate-file")
            request.predicateFiles = [BundlePredicateFile(name: URL(fileURLWithPath: predicateFile).lastPathComponent, contents: contents)]
            text = try PredicateFile.read(predicateFile).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let text {
            let parsed: DiagPredicate.Predicate
            do {
                parsed = try DiagPredicate.Predicate.parse(text, variables: variables, dateZone: DateLiteralZone(try TimezoneArgument.zone(timezone)))
            } catch {
                throw InputError("\(error)")
            }
            request.predicate = text
            request.selection = RecordSelector(filter: StoreFilter(), residual: { parsed.evaluate($0) })
        } else {
            request.selection = RecordSelector(filter: StoreFilter(), residual: { _ in true })
        }
        try options.addDaemonRing(to: &request)
        try BundleCommandOptions.collect(request)
    }

    private func readText(_ path: String, option: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("The value '\(path)' is invalid for '\(option)': the file cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError("\(path): not UTF-8 text")
        }
        return text
    }
}
