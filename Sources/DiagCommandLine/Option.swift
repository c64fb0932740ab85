// The wrappers are classes (their values already lived in shared `ArgumentStorage`): finding
// them among a command's properties is then a class check, where a protocol check scanned every
// protocol conformance of the binary once per property type, a millisecond of each run.

/// A named option: `--predicate P` or `--predicate=P`; an array type makes it repeatable.
///
/// The long name is the property's name in kebab case unless `name` is given.
@propertyWrapper
public final class Option<Value>: ArgumentDeclaration {
    let argument: ValueArgument<Value>
    let name: String?
    let short: Character?
    let help: String
    let valueName: String?

    public var wrappedValue: Value {
        get { argument.wrappedValue }
        set { argument.wrappedValue = newValue }
    }

    public convenience init(wrappedValue: Value, name: String? = nil, short: Character? = nil, help: String = "", valueName: String? = nil)
    where Value: ExpressibleByArgument {
        self.init(.single(default: wrappedValue), name, short, help, valueName)
    }

    public convenience init(name: String? = nil, short: Character? = nil, help: String = "", valueName: String? = nil)
    where Value: ExpressibleByArgument {
        self.init(.single(default: nil), name, short, help, valueName)
    }

    public convenience init<Wrapped: ExpressibleByArgument>(name: String? = nil, short: Character? = nil, help: String = "", valueName: String? = nil)
    where Value == Wrapped? {
        self.init(.optional(Wrapped.self), name, short, help, valueName)
    }

    public convenience init<Element: ExpressibleByArgument>(
        wrappedValue: [Element], name: String? = nil, short: Character? = nil, help: String = "", valueName: String? = nil
    ) where Value == [Element] {
        self.init(.repeating(default: wrappedValue), name, short, help, valueName)
    }

    public convenience init<Element: ExpressibleByArgument>(name: String? = nil, short: Character? = nil, help: String = "", valueName: String? = nil)
    where Value == [Element] {
        self.init(.repeating(default: []), name, short, help, valueName)
    }

    private init(_ argument: ValueArgument<Value>, _ name: String?, _ short: Character?, _ help: String, _ valueName: String?) {
        self.argument = argument
        self.name = name
        self.short = short
        self.help = help
        self.valueName = valueName
    }

    override func definitions(label: String) -> [ArgumentDefinition] {
        let long = name ?? kebabCase(label)
        return [argument.definition(kind: .option, long: long, short: short, valueName: valueName ?? long, help: help)]
    }
}

/// A positional argument; an array type takes every remaining positional value.
@propertyWrapper
public final class Argument<Value>: ArgumentDeclaration {
    let argument: ValueArgument<Value>
    let help: String
    let valueName: String?

    public var wrappedValue: Value {
        get { argument.wrappedValue }
        set { argument.wrappedValue = newValue }
    }

    public convenience init(wrappedValue: Value, help: String = "", valueName: String? = nil) where Value: ExpressibleByArgument {
        self.init(.single(default: wrappedValue), help, valueName)
    }

    public convenience init(help: String = "", valueName: String? = nil) where Value: ExpressibleByArgument {
        self.init(.single(default: nil), help, valueName)
    }

    public convenience init<Wrapped: ExpressibleByArgument>(help: String = "", valueName: String? = nil) where Value == Wrapped? {
        self.init(.optional(Wrapped.self), help, valueName)
    }

    public convenience init<Element: ExpressibleByArgument>(wrappedValue: [Element], help: String = "", valueName: String? = nil)
    where Value == [Element] {
        self.init(.repeating(default: wrappedValue), help, valueName)
    }

    public convenience init<Element: ExpressibleByArgument>(help: String = "", valueName: String? = nil) where Value == [Element] {
        self.init(.repeating(default: []), help, valueName)
    }

    private init(_ argument: ValueArgument<Value>, _ help: String, _ valueName: String?) {
        self.argument = argument
        self.help = help
        self.valueName = valueName
    }

    override func definitions(label: String) -> [ArgumentDefinition] {
        [argument.definition(kind: .positional, long: nil, short: nil, valueName: valueName ?? kebabCase(label), help: help)]
    }
}

/// An on/off switch: `--info`. Off unless given.
@propertyWrapper
public final class Flag: ArgumentDeclaration {
    let storage: ArgumentStorage<Bool>
    let name: String?
    let short: Character?
    let help: String

    public var wrappedValue: Bool {
        get { storage.value ?? false }
        set { storage.value = newValue }
    }

    public init(wrappedValue: Bool = false, name: String? = nil, short: Character? = nil, help: String = "") {
        storage = ArgumentStorage(wrappedValue)
        self.name = name
        self.short = short
        self.help = help
    }

    override func definitions(label: String) -> [ArgumentDefinition] {
        let storage = self.storage
        let long = name ?? kebabCase(label)
        return [ArgumentDefinition(
            kind: .flag, longName: long, shortName: short, valueName: long, help: help,
            isRepeating: false, isRequired: false, defaultDescription: nil, allowedValues: [],
            assign: { _ in storage.value = true; storage.wasGiven = true; return true },
            wasGiven: { storage.wasGiven })]
    }
}
