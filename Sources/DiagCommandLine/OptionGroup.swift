/// A set of options several commands share, declared once: a struct of `@Option`, `@Flag` and
/// `@Argument`s (and nested `@OptionGroup`s) with its own `validate()`, as swift-argument-parser
/// has it.
///
/// ```swift
/// struct PredicateOptions: ParsableArguments {
///     @Option(help: "Show only records that match this predicate.") var predicate: String?
///     @Option(help: "Read the predicate from a file.", valueName: "file") var predicateFile: String?
///
///     mutating func validate() throws {
///         if predicate != nil, predicateFile != nil { throw ValidationError("…cannot be used together") }
///     }
/// }
/// struct ShowCommand: ParsableCommand {
///     @OptionGroup var filter: PredicateOptions
/// }
/// ```
/// The command line knows no groups: `--predicate` is an option of `show`, parsed, suggested
/// and completed as if `show` declared it where the group stands.
public protocol ParsableArguments: SendableMetatype {
    init()
    /// Checks the parsed values together; throw `ValidationError` for bad usage (exit 64).
    /// A group's `validate()` runs before that of the command (or group) that holds it.
    mutating func validate() throws
}

extension ParsableArguments {
    public mutating func validate() throws {}
}

/// Includes the options of a `ParsableArguments` type in a command (or in another group).
///
/// With a `title`, `--help` lists the group's options under that title (`WINDOW:`) instead of
/// among OPTIONS; without one they stand in the command's OPTIONS where the group is declared.
///
/// `Value` is unconstrained on the class, as `Option`'s is: making `OptionGroup<X>`'s metadata
/// at run time then needs no look-up of `X: ParsableArguments` through every conformance record
/// of the binary (some 350,000 instructions each, several a `diag` run); the conformance comes
/// with `init`, where the compiler knows it.
@propertyWrapper
public final class OptionGroup<Value>: ArgumentDeclaration {
    var value: Value
    let title: String?
    private let validateValue: (inout Value) throws -> Void

    public var wrappedValue: Value {
        get { value }
        set { value = newValue }
    }

    public init(title: String? = nil) where Value: ParsableArguments {
        value = Value()
        self.title = title
        validateValue = { try $0.validate() }
    }

    override func definitions(label: String) -> [ArgumentDefinition] {
        argumentDefinitions(of: value).map { definition in
            var definition = definition
            // An inner group's own title wins over the outer one's.
            if definition.groupTitle == nil { definition.groupTitle = title }
            return definition
        }
    }

    /// Inner groups first, then this group's own rules, so they can rely on valid parts.
    override func validateGroup() throws {
        try validateOptionGroups(of: value)
        try validateValue(&value)
    }
}

@available(*, unavailable)
extension OptionGroup: Sendable {}
