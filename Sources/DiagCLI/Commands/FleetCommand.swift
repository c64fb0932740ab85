import DiagCommandLine
import DiagFleet
import Foundation

/// `diag fleet`: many bundles in one PostgreSQL database (docs/FLEET.md).
struct FleetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Load bundles into PostgreSQL and query them together.",
        discussion: """
            The database is given by --database URL (postgresql://user@host:port/dbname), else \
            $DIAG_FLEET_DATABASE. Records are kept in day partitions with the bundle and host they came \
            from; predicates run as in diag show, translated to PostgreSQL with bound parameters.
            """,
        subcommands: [FleetLoadCommand.self, FleetShowCommand.self, FleetStatsCommand.self])

    func run() throws {
        throw CleanExit.helpRequest()
    }
}

/// `--database URL`, else `$DIAG_FLEET_DATABASE`, connected; errors as `diag` reports them.
enum FleetDatabase {
    static func connect(_ option: String?) throws -> PostgresConnection {
        guard let url = option ?? ProcessInfo.processInfo.environment["DIAG_FLEET_DATABASE"], !url.isEmpty else {
            throw ValidationError("--database URL is required (or set DIAG_FLEET_DATABASE); accepted: postgresql://[user@]host[:port]/database")
        }
        return try reporting { try PostgresConnection(url: url) }
    }

    /// A `FleetError` as `diag`'s errors: bad input exits 65, a failure 1.
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FleetError {
            throw error.kind == .badInput ? InputError(error.message) as any Error : RuntimeError(error.message)
        }
    }
}
