import DiagModel
import Foundation
import Testing
import TestSupport

/// Bundles made the way users make them (`diag generate`, `diag import`, `diag collect`) and a
/// database holding them, shared by the suites:
///
/// 1. `generated`: DiagGenerator's sync-system records (Unicode messages, activities, levels);
/// 2. `edges`: records full of nils, Unicode, metadata, equal timestamps, and days apart (so
///    several day partitions), around the WWDC22 session's time the predicate cases name;
/// 3. `window`: a second collect of the first store over a window, so the same records (same
///    timestamps) come from two bundles and the tiebreak between bundles shows.
final class FleetFixture: Sendable {
    private static let built: Result<FleetFixture, PostgresServer.ServerError> = {
        do {
            return .success(try FleetFixture())
        } catch {
            return .failure(PostgresServer.ServerError("cannot build the fleet test bundles and database: \(error)"))
        }
    }()

    static func shared() throws -> FleetFixture { try built.get() }

    let folder: TemporaryDirectory
    /// In load order: `diag show` over them in this order is what `diag fleet show` must print.
    let bundles: [String]
    let databaseURL: String

    private init() throws {
        let folder = try TemporaryDirectory("diag-fleet")
        self.folder = folder
        func diag(_ arguments: [String]) throws -> ProcessOutput { try Self.diag(arguments, cache: folder) }
        let generatedStore = folder.file("generated.logarchive").path
        try Self.expectSuccess(diag(["generate", "--count", "3000", "--seed", "7", "--output", folder.file("generated.ndjson").path]))
        try Self.expectSuccess(diag(["import", "--store", generatedStore, folder.file("generated.ndjson").path]))
        let edgesFile = try folder.write("edges.ndjson", EdgeRecords.make(count: 1_500).map { $0.jsonString() }.joined(separator: "\n") + "\n")
        let edgesStore = folder.file("edges.logarchive").path
        try Self.expectSuccess(diag(["import", "--store", edgesStore, edgesFile]))
        var bundles: [String] = []
        for (store, extra, name) in [
            (generatedStore, [String](), "generated.tar.gz"), (edgesStore, [], "edges.tar.zst"),
            (generatedStore, ["--start", "2026-11-29 09:40:01", "--end", "2026-11-29 09:40:02"], "window.tar"),
        ] {
            let output = folder.file(name).path
            try Self.expectSuccess(diag(["collect", "--store", store, "--output", output] + extra))
            bundles.append(output)
        }
        self.bundles = bundles
        databaseURL = try PostgresServer.shared().makeDatabase()
        try Self.expectSuccess(diag(["fleet", "load", "--database", databaseURL] + bundles))
    }

    /// Runs the built `diag` with a private bundle cache, in UTC.
    func diag(_ arguments: [String]) throws -> ProcessOutput { try Self.diag(arguments, cache: folder) }

    static func diag(_ arguments: [String], cache folder: TemporaryDirectory) throws -> ProcessOutput {
        try run(BuiltProducts.path("diag"), arguments, environment: ["XDG_CACHE_HOME": folder.file("cache").path, "TZ": "UTC"])
    }

    static func expectSuccess(_ output: ProcessOutput) throws {
        guard output.status == 0 else {
            throw PostgresServer.ServerError("diag exited with \(output.status): \(output.stderr)")
        }
    }
}

/// Deterministic records that exercise the predicate cases: every optional field sometimes nil,
/// Unicode that folds (Café, ß, K, combining marks), metadata of every JSON type.
enum EdgeRecords {
    /// 2022-06-04 09:40:00 UTC, the WWDC22 session's time.
    static let start: Int64 = 1_654_335_600 * 1_000_000_000

    typealias Generator = SeededPicker

    static let processes: [String?] = ["apsd", "dasd", "cloudd", "CoreDataCloudKitDemo", nil, "Café", "Cafe\u{301}", "APSD", "zeta", "\u{10FFFF}x", "it's \"quoted\"; --"]
    static let senders: [String?] = ["CoreData", "CloudKit", nil, "UIKit", "straße", "apsd"]
    static let subsystems: [String?] = ["com.apple.apsd", nil, "com.example.sync", ""]
    static let words = ["push", "error 42", "Café", "CAFÉ", "Cafe\u{301}", "ß", "iCloud.com.example.CloudKitCoreDataDemo",
                        "CoreDataCloudKitDemo", "token", "line\nbreak", "naïve", "42", "x*y?z", "Øresund", "ca\u{345}fe", "\u{212A}elvin",
                        "100%_done\\", "tab\there", "com.apple.coredata.cloudkit.activity", "CEF8F02F-81DC-48E6-B293-6FCD357EF80F"]

    static func make(count: Int) -> [LogRecord] {
        var random = Generator(state: 2022)
        return (0..<count).map { index in
            let message = (0..<(1 + random.int(4))).map { _ in random.pick(words) }.joined(separator: random.pick([" ", "", ": "]))
            var metadata: [String: JSONValue]?
            if random.int(3) > 0 {
                metadata = [:]
                if random.int(2) == 0 { metadata?["storeIdentifier"] = random.pick(["ABC", "abc", "Ábc"]) }
                if random.int(2) == 0 { metadata?["count"] = .int(Int64(random.int(6))) }
                if random.int(3) == 0 { metadata?["ratio"] = .double(Double(random.int(4)) / 4) }
                if random.int(3) == 0 { metadata?["flag"] = .bool(random.int(2) == 0) }
                if random.int(4) == 0 { metadata?["tags"] = ["a", "b"] }
                if random.int(4) == 0 { metadata?["nothing"] = .null }
                if random.int(4) == 0 { metadata?["obj"] = ["k": 1] }
            }
            // Most within ten minutes (many equal timestamps), a few the next days, across midnight.
            let day: Int64 = index % 100 == 0 ? Int64(1 + random.int(2)) : 0
            let timestamp = start + day * 86_400_000_000_000 + Int64(random.int(600)) * 1_000_000_000 + Int64(random.int(3))
            return LogRecord(
                timestamp: timestamp,
                messageType: random.pick(MessageType.allCases),
                eventType: random.pick([.logEvent, .logEvent, .activityCreateEvent, .signpostEvent]),
                process: random.pick(processes),
                processID: random.maybe(Int64(random.int(300))),
                processImagePath: random.maybe("/usr/libexec/apsd"),
                userID: random.maybe(501),
                sender: random.pick(senders),
                subsystem: random.pick(subsystems),
                category: random.maybe(random.pick(["connection", "Connection", "sync"])),
                threadID: random.maybe(Int64(random.int(400))),
                activityIdentifier: random.maybe(77, nilOneIn: 2),
                parentActivityIdentifier: random.maybe(5, nilOneIn: 2),
                traceID: random.maybe(Int64(random.int(10)), nilOneIn: 2),
                eventMessage: message,
                formatString: random.maybe("%s"),
                signpostType: random.int(3) == 0 ? random.pick(["begin", "end", "event", "intervalBegin"]) : nil,
                // From the index, not the generator, so that the other fields stay what they were.
                signpostScope: ["process", "thread", "System", nil, "galaxy", "THREAD"][index % 6],
                metadata: metadata)
        }
    }
}
