import DiagCommandLine
import DiagStore

/// `diag index`: builds the message search indexes of the store's sealed chunks, so that
/// `eventMessage CONTAINS "…"` queries read only the records that can match.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Build the message search indexes of a log store.",
        discussion: "Indexes every sealed chunk that has none yet; the chunk being written gets its index once it is sealed.")

    @Option(help: "The store directory (default: $DIAG_STORE, else the state directory's system_logs.logarchive).", valueName: "directory")
    var store: String?

    func run() throws {
        let url = StoreLocation.resolve(store)
        let logStore: LogStore
        do {
            logStore = try LogStore.open(at: url)
        } catch let error as StoreError {
            throw RuntimeError(error.description)
        }
        let built = try logStore.buildSearchIndexes()
        try logStore.close()
        let total = logStore.info.chunks.filter(\.searchIndex).count
        StandardStream.output.write("Indexed \(built) chunk\(built == 1 ? "" : "s") in \(url.path); \(total) of \(logStore.info.chunks.count) now have a message search index.\n")
    }
}
