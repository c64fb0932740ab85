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
    /// The title of the `@OptionGroup` it came from, when that group has one: help lists it
    /// under that title instead of OPTIONS.
    var groupTitle: String? = nil
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

/// The base class of `@Option`, `@Flag`, `@Argument` and `@OptionGroup`, so the parser can
/// find them by reflection.
public class ArgumentDeclaration {
    init() {}

    /// What this property adds to the command line: one definition, or a group's several.
    func definitions(label: String) -> [ArgumentDefinition] {
        preconditionFailure("\(type(of: self)) must override definitions(label:)")
    }

    /// Checks the parsed values of an `@OptionGroup` (its own `validate()`); nothing for a
    /// single option.
    func validateGroup() throws {}
}

/// The declarations among `value`'s stored properties, in declaration order, with their labels.
///
/// The stored properties are walked with the standard library's field walk (`_forEachField`,
/// what `Mirror` is built on): a wrapper is a property whose type is an `ArgumentDeclaration`
/// subclass, read at its offset. `Mirror` also checked the command for `CustomReflectable`
/// (a scan of every protocol conformance in the binary) and boxed every property, a tenth of
/// `diag --version`'s time. The options are given from their raw value: the default, an empty
/// array literal, made them through `SetAlgebra`'s generic initialiser, whose associated-type
/// look-ups cost a sixth of a millisecond of every run.
func argumentDeclarations<Value>(of value: Value) -> [(label: String, declaration: ArgumentDeclaration)] {
    var declarations: [(label: String, declaration: ArgumentDeclaration)] = []
    _ = _forEachField(of: Value.self, options: _EachFieldOptions(rawValue: 0)) { name, offset, fieldType, _ in
        guard fieldType is ArgumentDeclaration.Type else { return true }
        let declaration = withUnsafeBytes(of: value) { $0.load(fromByteOffset: offset, as: ArgumentDeclaration.self) }
        var label = String(cString: name)
        if label.hasPrefix("_") { label.removeFirst() }
        declarations.append((label, declaration))
        return true
    }
    return declarations
}

/// The definitions of a command's (or an option group's) properties, in declaration order, a
/// group's options where the group is declared. The wrappers keep their values in shared
/// storage, so assigning through a definition fills the instance itself.
func argumentDefinitions<Value>(of value: Value) -> [ArgumentDefinition] {
    argumentDeclarations(of: value).flatMap { $0.declaration.definitions(label: $0.label) }
}

/// Runs the `validate()` of every `@OptionGroup` of `value`, in declaration order (a group
/// validates its own nested groups first).
func validateOptionGroups<Value>(of value: Value) throws {
    for (_, declaration) in argumentDeclarations(of: value) {
        try declaration.validateGroup()
    }
}
