/// What went wrong in `diag fleet`: bad input (a connection string, a bundle, a record PostgreSQL
/// cannot hold; exit status 65) or a failure of the database or the machine (exit status 1).
public struct FleetError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        case badInput
        case failure
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    static func badInput(_ message: String) -> FleetError { FleetError(.badInput, message) }
    static func failure(_ message: String) -> FleetError { FleetError(.failure, message) }

    public var description: String { message }
}
