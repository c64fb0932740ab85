import DiagCommandLine
import DiagGenerator
import DiagOutput

/// `diag generate`: deterministic, realistic records of the sync system's four components as
/// NDJSON, for tests, benchmarks and demos.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write generated log records as NDJSON.",
        discussion: "The same --count, --seed, --start and --rate always give the same bytes. The output can be read by diag show and diag import.")

    @Option(help: "How many records to write.")
    var count: Int

    @Option(help: "The seed of the generator.")
    var seed: UInt64 = 1

    @Option(help: "The time of the first record (same forms as show --start; default 2026-11-29 09:40:00 UTC).", valueName: "time")
    var start: String?

    @Option(help: "Records per second, on average.", valueName: "per-second")
    var rate: Double = 1000

    @Option(help: "Write to this file instead of standard output.", valueName: "file")
    var output: String?

    private var startTime = GeneratorOptions.defaultStart

    mutating func validate() throws {
        guard count >= 0 else {
            throw ValidationError("The value '\(count)' is invalid for '--count <count>'; accepted: 0 or more")
        }
        guard rate > 0 else {
            throw ValidationError("The value '\(rate)' is invalid for '--rate <per-second>'; accepted: a number above 0")
        }
        if let start { startTime = try TimeArgument.instant(start, option: "--start", zone: DisplayZone.fromEnvironment()) }
    }

    func run() throws {
        do {
            let writer = try output.map { path throws(NDJSONWriterError) in try NDJSONWriter(path: path) } ?? NDJSONWriter()
            for record in RecordGenerator(GeneratorOptions(count: count, seed: seed, start: startTime, ratePerSecond: rate)) {
                try writer.write(record)
            }
            try writer.close()
        } catch {
            throw RuntimeError("cannot write \(error.name): \(error.reason)")
        }
    }
}
