/// A type an option or argument value can be read from.
public protocol ExpressibleByArgument {
    /// The value, or nil when the text is not one (the parser then names the option and the text).
    init?(argument: String)
    /// Every accepted value, for help and errors; empty when the values are open-ended.
    static var allValueStrings: [String] { get }
    /// How a default value is shown in help: `(default: …)`.
    var defaultValueDescription: String { get }
}

extension ExpressibleByArgument {
    public static var allValueStrings: [String] { [] }
    public var defaultValueDescription: String { "\(self)" }
}

extension ExpressibleByArgument where Self: CaseIterable, Self: RawRepresentable, RawValue == String {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    public var defaultValueDescription: String { rawValue }
}

extension String: ExpressibleByArgument {
    public init?(argument: String) { self = argument }
}

extension Int: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

extension Int64: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

extension Int32: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

extension UInt64: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

extension Double: ExpressibleByArgument {
    public init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self = value
    }
}
