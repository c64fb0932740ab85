import DiagCommandLine

/// `--predicate`, `--predicate-file` and `--var`: the records a command reads, as `log show`
/// selects them. One of the first two at most; `--var NAME=VALUE` values `$NAME`.
struct PredicateOptions<Wording: OptionWording>: ParsableArguments {
    @Option(help: "\(Wording.only) records that match this predicate (NSPredicate format, as \(Wording.tool)).")
    var predicate: String?
    @Option(help: "Read the predicate from a file; lines starting with # are comments.", valueName: "file")
    var predicateFile: String?
    @Option(name: "var", help: "A value for $NAME in the predicate.", valueName: "name=value")
    var variables: [String]

    /// `--var`'s values by name, once validated.
    private(set) var boundVariables: [String: String] = [:]

    mutating func validate() throws {
        if predicate != nil, predicateFile != nil {
            throw ValidationError("--predicate and --predicate-file cannot be used together")
        }
        boundVariables = try VariableArguments.parse(variables)
    }

    /// The predicate's text: `--predicate`, or the file's (read now: a file that cannot be read
    /// is an error of the run, not of usage), or nil for every record.
    func text() throws -> String? {
        try predicateFile.map(PredicateFile.read) ?? predicate
    }
}
