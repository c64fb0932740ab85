@_spi(Reflection) import Swift

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
///
/// The stored properties are walked with the standard library's field walk (`_forEachField`,
/// what `Mirror` is built on): a wrapper is a property whose type is an `ArgumentDeclaration`
/// subclass, read at its offset. `Mirror` also checked the command for `CustomReflectable`
/// (a scan of every protocol conformance in the binary) and boxed every property, a tenth of
/// `diag --version`'s time.
func argumentDefinitions<Command>(of command: Command) -> [ArgumentDefinition] {
    var definitions: [ArgumentDefinition] = []
    _ = _forEachField(of: Command.self) { name, offset, fieldType, _ in
        guard fieldType is ArgumentDeclaration.Type else { return true }
        let declaration = withUnsafeBytes(of: command) { $0.load(fromByteOffset: offset, as: ArgumentDeclaration.self) }
        var label = String(cString: name)
        if label.hasPrefix("_") { label.removeFirst() }
        definitions.append(declaration.definition(label: label))
        return true
    }
    return definitions
}
