import Foundation

/// A command: a struct whose stored properties are `@Option`, `@Flag` and `@Argument`s,
/// in the manner of swift-argument-parser.
///
/// ```swift
/// struct CountCommand: ParsableCommand {
///     static let configuration = CommandConfiguration(abstract: "Count records.")
///     @Option(help: "Only this process; repeatable.") var process: [String]
///     @Flag(help: "Include Info records.") var info: Bool
///     @Argument(help: "The files.", valueName: "file") var files: [String]
///
///     mutating func validate() throws {
///         if files.isEmpty { throw ValidationError("Missing expected argument '<file> ...'") }  // exit 64
///     }
///     func run() throws { … }  // InputError: exit 65; RuntimeError or any other error: exit 1
/// }
/// ```
/// The command is reached as `diag count` (the type's name without `Command`, in kebab case),
/// once it is listed in its parent's `subcommands`; `--process`, `--info` come from the
/// property names.
///
/// `validate()` checks the parsed values together (throw `ValidationError` for bad usage);
/// `run()` does the work, synchronously: a program whose commands are all synchronous starts no
/// Swift concurrency threads (an `async` main cost every `diag` run 0.6 ms of start-up); a
/// command that needs concurrency starts its own tasks inside `run()`.
public protocol ParsableCommand: SendableMetatype {
    static var configuration: CommandConfiguration { get }
    init()
    mutating func validate() throws
    mutating func run() throws
}

extension ParsableCommand {
    public static var configuration: CommandConfiguration { CommandConfiguration() }

    public mutating func validate() throws {}

    /// The name the command is called by: the configured one, or the type's name without a
    /// `Command` suffix, in kebab case (`PredicateCommand` → `predicate`).
    static var commandName: String {
        if let name = configuration.commandName { return name }
        var typeName = String(describing: self)
        if typeName.hasSuffix("Command"), typeName != "Command" { typeName.removeLast("Command".count) }
        return kebabCase(typeName)
    }

    /// Parses `arguments` (without the program name), runs the chosen command and returns the
    /// process exit status; everything meant for the user is already written.
    public static func run(arguments: [String]) -> Int32 {
        CommandRunner(root: self).run(arguments: arguments)
    }

    /// Runs with the process's own arguments and exits with the command's status.
    ///
    /// The signals that stop a command (interrupt, terminate, hang-up, quit) are unblocked
    /// first: a parent that spawns from a thread blocking them (Foundation's `Process` from a
    /// dispatch worker does) would otherwise leave `diag stream` deaf to Ctrl-C and `kill`.
    public static func main() -> Never {
        var stopping = sigset_t()
        sigemptyset(&stopping)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&stopping, signal) }
        pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
        if let refusal = PredicateBytes.invalidPredicate() {
            StandardStream.error.write("Error: \(refusal)\n")
            exit(ExitCode.dataError.rawValue)
        }
        let status = run(arguments: Array(CommandLine.arguments.dropFirst()))
        exit(status)
    }
}

/// What a command says about itself in help and how it is reached.
public struct CommandConfiguration: Sendable {
    public var commandName: String?
    public var abstract: String
    public var discussion: String
    public var version: String?
    public var subcommands: [any ParsableCommand.Type]
    /// Shown in the usage line instead of the generated one, when set.
    public var usage: String?
    /// The manual section of a root command's pages (`--generate-manual`): 1, or 8 for a daemon.
    public var manualSection: Int
    /// Other programs' pages a root command's pages point to under SEE ALSO, e.g. `diagd(8)`.
    public var seeAlso: [String]

    public init(
        commandName: String? = nil, abstract: String = "", discussion: String = "",
        usage: String? = nil, version: String? = nil, subcommands: [any ParsableCommand.Type] = [],
        manualSection: Int = 1, seeAlso: [String] = []
    ) {
        self.manualSection = manualSection
        self.seeAlso = seeAlso
        self.commandName = commandName
        self.abstract = abstract
        self.discussion = discussion
        self.usage = usage
        self.version = version
        self.subcommands = subcommands
    }
}

/// `predicateFile` → `predicate-file`.
func kebabCase(_ name: String) -> String {
    var result = ""
    for character in name {
        if character.isUppercase {
            if !result.isEmpty { result.append("-") }
            result.append(contentsOf: character.lowercased())
        } else {
            result.append(character)
        }
    }
    return result
}
