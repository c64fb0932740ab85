import DiagCommandLine
import DiagStore
import Foundation

/// `diag erase`: `log erase` for a store. Asks first on a terminal; elsewhere it needs --yes.
struct EraseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase",
        abstract: "Erase every record of a log store.",
        discussion: """
            Removes the store's chunks and empties its \(StoreLayout.infoFile); the folder and its identifier stay for the \
            next writer. On a terminal it asks first; otherwise --yes is required. It is refused while diagd \
            (or diag import) writes the store: stop diagd first, erase, then start it again.
            """)

    @Option(help: "The store directory (default: $DIAG_STORE, else the state directory's system_logs.logarchive).", valueName: "directory")
    var store: String?

    @Flag(short: "y", help: "Erase without asking.")
    var yes: Bool

    func run() throws {
        let url = StoreLocation.resolve(store)
        guard StoreLayout.hasInfo(url) else {
            throw RuntimeError("no log store at \(url.path) (no \(StoreLayout.infoFile)); nothing to erase")
        }
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw ValidationError("diag erase removes every record of \(url.path): pass --yes to confirm when not at a terminal")
            }
            StandardStream.error.write("Erase every record of \(url.path)? [y/N] ")
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                StandardStream.error.write("Nothing erased.\n")
                throw ExitCode.failure
            }
        }
        do {
            let result = try LogStore.erase(at: url)
            StandardStream.output.write("Erased \(result.records) record\(result.records == 1 ? "" : "s") (\(result.chunkFiles) chunk file\(result.chunkFiles == 1 ? "" : "s")) from \(url.path)\n")
        } catch let error as StoreError {
            if error.kind == .locked {
                throw RuntimeError("\(url.path) is being written by diagd or another writer (it holds \(StoreLayout.writerLockURL(url).path)); stop it, then erase")
            }
            throw RuntimeError(error.description)
        }
    }
}
