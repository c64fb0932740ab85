/// Where a property wrapper keeps its value: a reference, so that the copy reflection hands the
/// parser and the command's own property are the same storage.
///
/// Not thread-safe: a command is parsed and run on one task.
final class ArgumentStorage<Value> {
    var value: Value?
    var wasGiven = false

    init(_ value: Value?) { self.value = value }
}

@available(*, unavailable)
extension ArgumentStorage: Sendable {}

/// What `@Option` and `@Argument` share: the storage and how text becomes a value.
struct ValueArgument<Value> {
    let storage: ArgumentStorage<Value>
    let isRepeating: Bool
    let isOptional: Bool
    let allowedValues: [String]
    let defaultDescription: String?
    /// Combines what is stored so far (nil before the first value) with one more text.
    let combine: (Value?, String) -> Value?

    static func single(default value: Value?) -> ValueArgument where Value: ExpressibleByArgument {
        ValueArgument(
            storage: ArgumentStorage(value), isRepeating: false, isOptional: false,
            allowedValues: Value.allValueStrings, defaultDescription: value?.defaultValueDescription,
            combine: { _, text in Value(argument: text) })
    }

    static func optional<Wrapped: ExpressibleByArgument>(_: Wrapped.Type) -> ValueArgument where Value == Wrapped? {
        ValueArgument(
            storage: ArgumentStorage(.some(nil)), isRepeating: false, isOptional: true,
            allowedValues: Wrapped.allValueStrings, defaultDescription: nil,
            combine: { _, text in Wrapped(argument: text).map { .some($0) } })
    }

    static func repeating<Element: ExpressibleByArgument>(default value: [Element]) -> ValueArgument where Value == [Element] {
        ValueArgument(
            storage: ArgumentStorage(value), isRepeating: true, isOptional: true,
            allowedValues: Element.allValueStrings, defaultDescription: nil,
            combine: { current, text in Element(argument: text).map { (current ?? []) + [$0] } })
    }

    var wrappedValue: Value {
        get {
            guard let value = storage.value else {
                preconditionFailure("A required argument was read before the command line was parsed")
            }
            return value
        }
        nonmutating set { storage.value = newValue }
    }

    func definition(kind: ArgumentDefinition.Kind, long: String?, short: Character?, valueName: String, help: String) -> ArgumentDefinition {
        let storage = self.storage
        let combine = self.combine
        return ArgumentDefinition(
            kind: kind, longName: long, shortName: short, valueName: valueName, help: help,
            isRepeating: isRepeating, isRequired: storage.value == nil && !isOptional,
            defaultDescription: defaultDescription, allowedValues: allowedValues,
            assign: { text in
                // A repeated option given on the command line replaces its default list.
                guard let value = combine(storage.wasGiven ? storage.value : nil, text) else { return false }
                storage.value = value
                storage.wasGiven = true
                return true
            },
            wasGiven: { storage.wasGiven })
    }
}
