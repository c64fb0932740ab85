/// The exit statuses of `diag` and `diagd` (DESIGN.md): throw one to end a command with that
/// status and no further message.
public struct ExitCode: Error, Sendable, Hashable {
    public var rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    public static let success = ExitCode(0)
    /// The work failed at run time (I/O, a store that cannot be opened).
    public static let failure = ExitCode(1)
    /// The command line was wrong (`EX_USAGE`).
    public static let usageError = ExitCode(64)
    /// The input data or the predicate was wrong (`EX_DATAERR`).
    public static let dataError = ExitCode(65)
}

/// Bad usage found by a command's `validate()` or `run()`: printed as `Error: …` with the
/// command's usage line and a pointer to its help; exit status 64.
public struct ValidationError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Input that was read and refused (a bad predicate, a malformed file): printed as
/// `Error: …` without usage; exit status 65.
public struct InputError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// A failure while doing the work (a file that cannot be written): `Error: …`, exit status 1.
public struct RuntimeError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Ends a command early with a clean exit: help or version was asked for.
public enum CleanExit: Error {
    case help(path: [any ParsableCommand.Type])
    case version(String)

    /// Thrown by a command that only groups subcommands, when called without one: prints its help.
    public struct HelpRequest: Error, Sendable {
        public init() {}
    }

    public static func helpRequest() -> HelpRequest { HelpRequest() }
}
