/// A command tree as the completion scripts, the manual pages and `--experimental-dump-help`
/// see it: read from the same `@Option`/`@Flag`/`@Argument` definitions the parser uses, so an
/// option added to a command appears in all of them without a change anywhere else.
public struct CommandInfo: Sendable, Encodable {
    /// The names from the root: `["diag", "fleet", "load"]`.
    public var path: [String]
    public var abstract: String
    public var discussion: String
    public var usage: String
    /// Only the root has one; it then takes `--version`.
    public var version: String?
    /// The manual section of the root's pages (1 for commands, 8 for daemons).
    public var manualSection: Int
    /// Pages of other programs the root's pages point to, e.g. `diagd(8)`.
    public var seeAlso: [String]
    /// Options, flags and positional arguments in declaration order, then `--version` and `--help`.
    public var arguments: [ArgumentInfo]
    public var subcommands: [CommandInfo]

    public var name: String { path[path.count - 1] }
    /// `diag show`.
    public var commandLine: String { path.joined(separator: " ") }
    /// `diag-show`: the manual page's name.
    public var pageName: String { path.joined(separator: "-") }

    public init(root: any ParsableCommand.Type) {
        self.init(path: [root])
    }

    init(path: [any ParsableCommand.Type]) {
        let command = path[path.count - 1]
        let configuration = command.configuration
        let root = path[0].configuration
        self.path = path.map { $0.commandName }
        abstract = configuration.abstract
        discussion = configuration.discussion
        usage = HelpGenerator(path: path).usage
        version = path.count == 1 ? configuration.version : nil
        manualSection = root.manualSection
        seeAlso = root.seeAlso
        arguments = argumentDefinitions(of: makeCommand(command)).map(ArgumentInfo.init)
        if version != nil, !arguments.contains(where: { $0.longName == "version" }) {
            arguments.append(ArgumentInfo(flag: "version", short: nil, help: "Show the version."))
        }
        arguments.append(ArgumentInfo(flag: "help", short: "h", help: "Show help information."))
        subcommands = configuration.subcommands.map { CommandInfo(path: path + [$0]) }
    }

    /// This command and every command under it, depth first.
    public var allCommands: [CommandInfo] {
        [self] + subcommands.flatMap(\.allCommands)
    }

    public var options: [ArgumentInfo] { arguments.filter { $0.kind != .positional } }
    public var positionals: [ArgumentInfo] { arguments.filter { $0.kind == .positional } }
}

/// One option, flag or positional argument, with what a shell can offer as its value.
public struct ArgumentInfo: Sendable, Encodable {
    public enum Kind: String, Sendable, Encodable { case option, flag, positional }

    /// What a completion offers for the value.
    public enum ValueCompletion: String, Sendable, Encodable {
        /// Open text (a predicate, a time): nothing to offer.
        case none
        /// The type's values (`allowedValues`).
        case values
        case file
        case directory
    }

    public var kind: Kind
    public var longName: String?
    public var shortName: String?
    public var valueName: String
    public var help: String
    public var isRepeating: Bool
    public var isRequired: Bool
    public var defaultValue: String?
    public var allowedValues: [String]
    public var completion: ValueCompletion

    init(_ definition: ArgumentDefinition) {
        kind = switch definition.kind {
        case .option: .option
        case .flag: .flag
        case .positional: .positional
        }
        longName = definition.kind == .positional ? nil : (definition.longName ?? definition.valueName)
        shortName = definition.shortName.map { String($0) }
        valueName = definition.valueName
        help = definition.help
        isRepeating = definition.isRepeating
        isRequired = definition.isRequired
        defaultValue = definition.defaultDescription.flatMap { $0.isEmpty ? nil : $0 }
        allowedValues = definition.allowedValues
        completion = definition.kind == .flag ? .none : Self.completion(valueName: definition.valueName, allowed: definition.allowedValues)
    }

    init(flag: String, short: Character?, help: String) {
        kind = .flag
        longName = flag
        shortName = short.map { String($0) }
        valueName = flag
        self.help = help
        isRepeating = false
        isRequired = false
        defaultValue = nil
        allowedValues = []
        completion = .none
    }

    /// Read from the value's type (its accepted values) or its name: the commands name paths
    /// `file`, `path`, `source`, `bundle`, `dir-or-file`, and folders `dir`, `directory`.
    static func completion(valueName: String, allowed: [String]) -> ValueCompletion {
        if !allowed.isEmpty { return .values }
        switch valueName.lowercased() {
        case "file", "path", "source", "bundle", "archive", "dir-or-file", "files": return .file
        case "dir", "directory", "folder": return .directory
        default: return .none
        }
    }

    /// `--style`, or `-s` when the option has only a short name; `<source>` for a positional.
    public var displayName: String {
        if kind == .positional { return "<\(valueName)>" }
        return "--" + (longName ?? valueName)
    }

    /// Whether a value follows the option's name on the command line.
    public var takesValue: Bool { kind == .option }

    /// The help with the notes `--help` shows: values, default, repeatable.
    public var fullHelp: String {
        var notes: [String] = []
        if !allowedValues.isEmpty { notes.append("values: " + allowedValues.joined(separator: ", ")) }
        if let defaultValue { notes.append("default: " + defaultValue) }
        if isRepeating, kind == .option { notes.append("repeatable") }
        guard !notes.isEmpty else { return help }
        return help + (help.isEmpty ? "" : " ") + "(" + notes.joined(separator: "; ") + ")"
    }
}
