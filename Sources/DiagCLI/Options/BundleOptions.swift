import DiagBundle
import DiagCommandLine

/// What `collect` and `feedback` share: where the bundle goes, its window, the component store
/// files it snapshots, its compression and the log store it reads. The window is checked with
/// the rest when `BundleCommandOptions` is made (the same `TimeWindow` rule as every command).
struct BundleOptions: ParsableArguments {
    @Option(help: "A folder to write the bundle in, or the bundle's file path.", valueName: "dir-or-file")
    var output: String?
    @Option(help: "Start of the window; accepted: \(TimeArgument.accepted).")
    var start: String?
    @Option(help: "End of the window (exclusive).")
    var end: String?
    @Option(help: "Only the last part of the log: 30s, 5m, 2h, 1d (a bare number is seconds), or boot.")
    var last: String?
    @Option(name: "store-file", help: "A component's SQLite store file to snapshot.", valueName: "path")
    var storeFiles: [String]
    @Option(help: "How to compress the bundle (default: from the --output extension, else gzip).")
    var compression: BundleCompression?
    @Option(help: "The log store directory (default: $DIAG_STORE or the standard one).", valueName: "dir")
    var store: String?

    /// The checked options with the command's own identifiers and zone.
    func checked(variables: [String], identifiers: [String], timezone: String?) throws -> BundleCommandOptions {
        try BundleCommandOptions(
            output: output, start: start, end: end, last: last, compression: compression, store: store,
            variables: variables, identifiers: identifiers, timezone: timezone)
    }
}
