/// One option, flag or positional argument of a command, as the parser and help see it.
struct ArgumentDefinition {
    enum Kind { case option, flag, positional }

    var kind: Kind
    var longName: String?
    var shortName: Character?
    var valueName: String
    var help: String
    var isRepeating: Bool
    var isRequired: Bool
    var defaultDescription: String?
    var allowedValues: [String]
    /// Stores a value read from the command line; false when the text is not an accepted value.
    var assign: (String) -> Bool
    /// Whether the command line gave a value.
    var wasGiven: () -> Bool

    /// `--predicate <predicate>`, `-h, --help`, `<source>`: how help and errors name it.
    var synopsis: String {
        switch kind {
        case .positional: return "<\(valueName)>"
        case .flag: return "--\(longName ?? valueName)"
        case .option: return "--\(longName ?? valueName) <\(valueName)>"
        }
    }

    var helpLabel: String {
        var label = ""
        if let shortName { label += "-\(shortName), " }
        switch kind {
        case .positional: label += "<\(valueName)>"
        case .flag: label += "--\(longName ?? valueName)"
        case .option: label += "--\(longName ?? valueName) <\(valueName)>"
        }
        if isRepeating, kind == .positional { label += " ..." }
        return label
    }

    /// The usage-line form: `[--info]`, `--count <count>`, `[--var <var> ...]`, `[<source> ...]`.
    var usageElement: String {
        var element = kind == .option ? "--\(longName ?? valueName) <\(valueName)>" : (kind == .flag ? "--\(longName ?? valueName)" : "<\(valueName)>")
        if isRepeating { element += " ..." }
        return isRequired ? element : "[\(element)]"
    }
}

/// The base class of `@Option`, `@Flag` and `@Argument`, so the parser can find them by reflection.
public class ArgumentDeclaration {
    init() {}

    func definition(label: String) -> ArgumentDefinition {
        preconditionFailure("\(type(of: self)) must override definition(label:)")
    }
}

/// The definitions of a command instance's properties, in declaration order. The wrappers keep
/// their values in shared storage, so assigning through a definition fills the instance itself.
func argumentDefinitions(of command: Any) -> [ArgumentDefinition] {
    Mirror(reflecting: command).children.compactMap { child in
        guard let declaration = child.value as? ArgumentDeclaration, var label = child.label else { return nil }
        if label.hasPrefix("_") { label.removeFirst() }
        return declaration.definition(label: label)
    }
}
