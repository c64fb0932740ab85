import DiagCommandLine
import DiagFleet
import Foundation

/// `diag fleet load --database URL BUNDLE…`: each bundle in one transaction; a bundle loaded
/// before (same manifest) adds nothing.
struct FleetLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load bundles into the fleet database.",
        discussion: """
            A BUNDLE is a .tar.gz, .tar.zst or .tar bundle, or an unpacked bundle folder. Each bundle is \
            loaded in one transaction: after an error it is absent, never half there. A bundle whose \
            manifest is already loaded is skipped. Prints one line per bundle: its number, host, records.
            """)

    @Option(help: "The PostgreSQL database: postgresql://[user@]host[:port]/database (default: $DIAG_FLEET_DATABASE).", valueName: "url")
    var database: String?

    @Argument(help: "Bundles to load.", valueName: "bundle")
    var bundles: [String]

    func validate() throws {
        if bundles.isEmpty { throw ValidationError("Missing expected argument '<bundle> ...'") }
    }

    func run() throws {
        let connection = try FleetDatabase.connect(database)
        let loader = FleetLoader(connection: connection)
        let showProgress = StandardStream.error.isTerminal
        var failures: [any Error] = []
        for path in bundles {
            do {
                let outcome = try FleetDatabase.reporting {
                    try loader.load(path) { count in
                        if showProgress { StandardStream.error.write("\r\u{1B}[Kloading \(path): \(count) records") }
                    }
                }
                if showProgress { StandardStream.error.write("\r\u{1B}[K") }
                let verb = outcome.alreadyLoaded ? "already loaded" : "loaded"
                StandardStream.output.write("\(verb) \(path): bundle \(outcome.bundleID), host \(outcome.host), \(outcome.recordCount) records, identity \(outcome.identity.prefix(16))\n")
            } catch {
                if showProgress { StandardStream.error.write("\r\u{1B}[K") }
                // The other bundles are still loaded; the status says something failed.
                StandardStream.error.write("Error: \(error)\n")
                failures.append(error)
            }
        }
        if !failures.isEmpty {
            throw failures.allSatisfy { $0 is InputError } ? ExitCode.dataError : ExitCode.failure
        }
    }
}
