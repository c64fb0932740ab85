import DiagModel

/// A line of diagd's protocol that does not read: diagd sends it back to the client as
/// `{"error": description, "line": N}`; a client reports it with the daemon's address.
public struct ProtocolError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension JSONValue {
    /// The JSON type's name, for error messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
