import DiagForward
import DiagGenerator
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

/// `diag export` run as a user runs it, each format read back and compared with `diag show`.
struct ExportCommandTests {
    static let start = GeneratorOptions.defaultStart

    /// A store of 3,000 generated records and a few hand-made ones, and a bundle collected from it.
    final class Fixture: Sendable {
        let folder: TemporaryDirectory
        let store: String
        let bundle: String

        init() throws {
            folder = try TemporaryDirectory("diag-export")
            store = folder.file("store").path
            let logStore = try LogStore.open(at: URL(fileURLWithPath: store), create: true, options: .init(chunkSizeLimit: 256 * 1024))
            var records = Array(RecordGenerator(GeneratorOptions(count: 3000, seed: 5)))
            records.append(LogRecord(
                timestamp: ExportCommandTests.start + 1_500_000_000, messageType: .fault, process: "synccore", processID: 7,
                subsystem: "com.example.ünïcode", category: "cat]\"\\", eventMessage: "Zoë ✓ line one\nline two \u{1}",
                metadata: ["store": "S-1"]))
            records.sort { $0.timestamp < $1.timestamp }
            try logStore.append(records)
            try logStore.close()
            let collected = try run(BuiltProducts.path("diag"), ["collect", "--store", store, "--output", folder.path + "/"],
                                    environment: ["XDG_CACHE_HOME": folder.path, "TZ": "UTC"])
            guard collected.status == 0, let bundle = collected.stdout.split(separator: "\n").last else {
                throw ReceiverError(description: "diag collect failed: \(collected.stderr)")
            }
            self.bundle = String(bundle)
        }

        func diag(_ arguments: [String]) throws -> ProcessOutput {
            try run(BuiltProducts.path("diag"), arguments, environment: ["XDG_CACHE_HOME": folder.path, "TZ": "UTC"])
        }

        /// `diag show`'s NDJSON for the same selection, every level.
        func shown(_ selection: [String], source: String) throws -> [[String: JSONValue]] {
            let shown = try diag(["show", "--info", "--debug", "--style", "ndjson"] + selection + [source])
            #expect(shown.status == 0, "\(shown.stderr)")
            return try shown.stdout.split(separator: "\n").map { try JSONReader.parseObject(String($0)) }
        }
    }

    static let fixture = Result { try Fixture() }

    static let selections: [[String]] = [
        [],
        ["--predicate", #"process == "transport" OR messageType == fault"#],
        ["--start", "@\(start / 1_000_000_000 + 1)", "--end", "@\(start / 1_000_000_000 + 2)", "--predicate", "messageType >= error"],
    ]

    @Test(arguments: selections, [false, true])
    func ndjsonIsWhatShowPrints(selection: [String], fromBundle: Bool) throws {
        let fixture = try Self.fixture.get()
        let source = fromBundle ? fixture.bundle : fixture.store
        let exported = try fixture.diag(["export", "--format", "ndjson"] + selection + [source])
        let shown = try fixture.diag(["show", "--info", "--debug", "--style", "ndjson"] + selection + [source])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(!exported.stdout.isEmpty)
        #expect(exported.stdout == shown.stdout)
    }

    @Test(arguments: selections, [false, true])
    func otlpJSONLinesAreValidRequestsOfTheSameRecords(selection: [String], fromBundle: Bool) throws {
        let fixture = try Self.fixture.get()
        let source = fromBundle ? fixture.bundle : fixture.store
        let exported = try fixture.diag(["export", "--format", "otlp-json", "--batch-size", "700"] + selection + [source])
        #expect(exported.status == 0, "\(exported.stderr)")
        let expected = try fixture.shown(selection, source: source)
        let lines = exported.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == (expected.count + 699) / 700)
        var received: [OTLPReceivedRecord] = []
        for line in lines {
            let rules = OTLPJSONRules.check(Array(line.utf8))
            #expect(rules.problems == [])
            received += rules.records
        }
        #expect(received.map { "\($0.timeUnixNano ?? 0) \($0.body?.stringValue ?? "")" }.sorted()
            == expected.map { "\($0["timestampNanoseconds"]?.int64Value ?? 0) \($0["eventMessage"]?.stringValue ?? "")" }.sorted())
        // The bundle was collected here, so its manifest names this machine too.
        #expect(received.allSatisfy { $0.resource["host.name"]?.stringValue == RFC5424Encoder.localHostname() })
    }

    @Test(arguments: selections, [false, true])
    func rfc5424FramesParseBackToTheSameRecords(selection: [String], fromBundle: Bool) throws {
        let fixture = try Self.fixture.get()
        let source = fromBundle ? fixture.bundle : fixture.store
        let exported = try fixture.diag(["export", "--format", "rfc5424", "--facility", "local0", "--host", "relay-1"] + selection + [source])
        #expect(exported.status == 0, "\(exported.stderr)")
        let expected = try fixture.shown(selection, source: source)
        let messages = try SyslogFrames.parse(Array(exported.stdout.utf8))
        #expect(messages.count == expected.count)
        for (message, record) in zip(messages, expected) {
            let level = try #require(record["messageType"]?.stringValue.flatMap { MessageType(name: $0) })
            #expect(message.priority == 16 * 8 + RFC5424Encoder.severity(of: level))
            #expect(message.hostname == "relay-1")
            #expect(message.timestamp == Timestamp.formatISO8601(nanoseconds: record["timestampNanoseconds"]?.int64Value ?? 0))
            #expect(message.appName == record["process"]?.stringValue)
            #expect(message.message == record["eventMessage"]?.stringValue)
        }
    }

    @Test func theBundlesHostIsTheDefaultHostAndOutputGoesToAFileWhole() throws {
        let fixture = try Self.fixture.get()
        let output = fixture.folder.file("out/export.jsonl")
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        let exported = try fixture.diag(["export", "--format", "otlp-json", "--output", output.path, fixture.bundle])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.isEmpty)
        let toStdout = try fixture.diag(["export", "--format", "otlp-json", fixture.bundle])
        #expect(try String(contentsOf: output, encoding: .utf8) == toStdout.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path) == ["export.jsonl"])
        let manifest = try JSONReader.parseObject(try run("/usr/bin/tar", ["-xzOf", fixture.bundle, "--wildcards", "*/manifest.json"]).stdout)
        let rules = OTLPJSONRules.check(Array(toStdout.stdout.split(separator: "\n")[0].utf8))
        #expect(rules.records.first?.resource["host.name"] == manifest["host"])
        let renamed = try fixture.diag(["export", "--format", "otlp-json", "--host", "replay-7", fixture.bundle])
        #expect(OTLPJSONRules.check(Array(renamed.stdout.split(separator: "\n")[0].utf8)).records.allSatisfy {
            $0.resource["host.name"] == "replay-7"
        })
    }

    @Test(arguments: [
        (["--format", "xml"], Int32(64), "The value 'xml' is invalid for '--format <format>'; accepted values: 'rfc5424', 'otlp-json', 'ndjson'"),
        ([], 64, "--format"),
        (["--format", "rfc5424", "--facility", "local9"], 64, "The value 'local9' is invalid for '--facility <facility>'; accepted: 0 to 23 or kern, user"),
        (["--format", "rfc5424", "--facility", "24"], 64, "'24' is invalid for '--facility"),
        (["--format", "otlp-json", "--batch-size", "0"], 64, "The value '0' is invalid for '--batch-size <n>'; accepted: 1 to 100000"),
        (["--format", "ndjson", "--predicate", "process ==="], 65, "process ==="),
        (["--format", "ndjson", "--output", "/nonexistent-dir/x.ndjson"], 1, "cannot write /nonexistent-dir/x.ndjson: No such file or directory"),
    ] as [([String], Int32, String)])
    func badArgumentsGetAClearErrorAndStatus(arguments: [String], status: Int32, message: String) throws {
        let fixture = try Self.fixture.get()
        let exported = try fixture.diag(["export"] + arguments + [fixture.store])
        #expect(exported.status == status)
        #expect(exported.stderr.contains(message), "\(exported.stderr)")
        #expect(exported.stdout.isEmpty)
    }

    @Test func refusedLinesOfAPlainFileAreReportedAfterExportingTheRest() throws {
        let fixture = try Self.fixture.get()
        let records = Array(RecordGenerator(GeneratorOptions(count: 3, seed: 2))).map { $0.jsonString() }
        let file = try fixture.folder.write("mixed.ndjson", ([records[0], "{not json", records[1], "\u{0}\u{ff}", records[2]]).joined(separator: "\n") + "\n")
        let exported = try fixture.diag(["export", "--format", "rfc5424", file])
        #expect(exported.status == 65)
        #expect(exported.stderr.contains("mixed.ndjson:2"))
        #expect(exported.stderr.contains("2 lines were refused (not records); 3 records exported"))
        #expect(try SyslogFrames.parse(Array(exported.stdout.utf8)).count == 3)
    }
}
