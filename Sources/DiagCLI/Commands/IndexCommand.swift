import DiagCommandLine
import DiagStore

/// `diag index`: builds the message search indexes of the store's sealed chunks, so that
/// `eventMessage CONTAINS "…"` queries read only the records that can match. diagd, `diag
/// import` and `diag collect` build them by themselves; this is for stores written before.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Build the message search indexes of a log store.",
        discussion: """
            Indexes every sealed chunk that has none yet; the chunk being written gets its index once it is sealed. \
            diagd indexes the chunks it closes in the background, and diag import and diag collect index what they \
            write, so this is needed only for stores written by older versions. --status only reports.
            """)

    @Option(help: "The store directory (default: $DIAG_STORE, else the state directory's system_logs.logarchive).", valueName: "directory")
    var store: String?

    @Flag(help: "Report how much of the store is indexed, and build nothing.")
    var status: Bool

    func run() throws {
        let url = StoreLocation.resolve(store)
        let logStore: LogStore
        do {
            logStore = try LogStore.open(at: url, options: status ? .readOnly : LogStore.Options())
        } catch let error as StoreError {
            throw RuntimeError(error.description)
        }
        if status {
            let chunks = logStore.info.chunks
            let indexed = chunks.filter(\.searchIndex)
            let records = { (list: [ChunkInfo]) in list.reduce(Int64(0)) { $0 + $1.recordCount } }
            StandardStream.output.write("\(indexed.count) of \(chunks.count) chunks of \(url.path) have a message search index (\(records(indexed)) of \(records(chunks)) records).\n")
            return
        }
        let built = try logStore.buildSearchIndexes()
        try logStore.close()
        let total = logStore.info.chunks.filter(\.searchIndex).count
        StandardStream.output.write("Indexed \(built) chunk\(built == 1 ? "" : "s") in \(url.path); \(total) of \(logStore.info.chunks.count) now have a message search index.\n")
    }
}
