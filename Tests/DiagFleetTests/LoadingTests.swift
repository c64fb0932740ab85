import DiagFleet
import Foundation
import Testing
import TestSupport

/// Loading: day partitions, idempotence, and what hostile input leaves behind (nothing).
@Suite("fleet load")
struct LoadingTests {
    func counts(_ url: String) throws -> (bundles: String?, records: String?) {
        let connection = try PostgresConnection(url: url)
        return (try connection.value("SELECT count(*) FROM bundles"), try connection.value("SELECT count(*) FROM records"))
    }

    @Test func dayPartitionsHoldTheRecords() throws {
        let fixture = try FleetFixture.shared()
        let connection = try PostgresConnection(url: fixture.databaseURL)
        let result = try connection.execute("""
            SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'records'::regclass ORDER BY 1
            """)
        let names = (0..<result.rowCount).compactMap { result.text(row: $0, column: 0) }
        #expect(names == ["records_20220604", "records_20220605", "records_20220606", "records_20261129"])
        // A month-old day goes with its table; nothing else is touched.
        #expect(try connection.value(#"SELECT count(*) FROM records_20220605 WHERE "timestamp" < 1654387200000000000 OR "timestamp" >= 1654473600000000000"#) == "0")
    }

    @Test func loadingTwiceAddsNothing() throws {
        let fixture = try FleetFixture.shared()
        let url = try PostgresServer.shared().makeDatabase()
        let first = try fixture.diag(["fleet", "load", "--database", url] + fixture.bundles)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try counts(url)
        let showBefore = try fixture.diag(["fleet", "show", "--database", url, "--info", "--debug", "--style", "ndjson"])
        let second = try fixture.diag(["fleet", "load", "--database", url] + fixture.bundles.reversed())
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("already loaded") }, "\(second.stdout)")
        #expect(try counts(url) == before)
        #expect(before.bundles == "3")
        let showAfter = try fixture.diag(["fleet", "show", "--database", url, "--info", "--debug", "--style", "ndjson"])
        #expect(showAfter.stdout == showBefore.stdout)
    }

    @Test func twoLoadersOfOneBundleLoadItOnce() throws {
        let fixture = try FleetFixture.shared()
        let url = try PostgresServer.shared().makeDatabase()
        let outputs = ProcessOutputs()
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            outputs.append(Result { try fixture.diag(["fleet", "load", "--database", url, fixture.bundles[1], fixture.bundles[2]]) })
        }
        let finished = try outputs.all.map { try $0.get() }
        #expect(finished.allSatisfy { $0.status == 0 }, "\(finished.map(\.stderr))")
        let lines = finished.flatMap { $0.stdout.split(separator: "\n") }
        #expect(lines.filter { $0.hasPrefix("loaded ") }.count == 2, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("already loaded ") }.count == 4, "\(lines)")
        let expected = try fixture.diag(["show", "--info", "--debug", "--signpost", "--style", "ndjson"] + Array(fixture.bundles[1...2]))
        let connection = try PostgresConnection(url: url)
        let total = try connection.value("SELECT count(*) FROM records")
        #expect(total == String(expected.stdout.split(separator: "\n").count))
    }

    @Test func theSameBundleUnpackedIsTheSameBundle() throws {
        let fixture = try FleetFixture.shared()
        let url = try PostgresServer.shared().makeDatabase()
        let folder = try TemporaryDirectory("fleet-unpacked")
        let tar = try run("/bin/tar", ["-xf", fixture.bundles[2], "-C", folder.path])
        #expect(tar.status == 0, "\(tar.stderr)")
        let unpacked = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first)
        let loaded = try fixture.diag(["fleet", "load", "--database", url, fixture.bundles[2], folder.file(unpacked).path])
        #expect(loaded.status == 0, "\(loaded.stderr)")
        let lines = loaded.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("loaded ") && lines[1].hasPrefix("already loaded "), "\(loaded.stdout)")
    }

    @Test func badURLsAreRefusedWithTheAcceptedForms() throws {
        let fixture = try FleetFixture.shared()
        for url in ["not a url", "postgresql://[::1/x", "mysql://db/x"] {
            let shown = try fixture.diag(["fleet", "show", "--database", url])
            #expect(shown.status == 65, "\(url): \(shown.stderr)")
            #expect(shown.stderr.contains("accepted: postgresql://"), "\(url): \(shown.stderr)")
        }
        let missing = try fixture.diag(["fleet", "load", fixture.bundles[0]])
        #expect(missing.status == 64, "\(missing.stderr)")
    }

    @Test func aDatabaseWithoutBundlesSaysToLoadSome() throws {
        let fixture = try FleetFixture.shared()
        let url = try PostgresServer.shared().makeDatabase()
        for command in ["show", "stats"] {
            let shown = try fixture.diag(["fleet", command, "--database", url])
            #expect(shown.status == 65, "\(shown.stderr)")
            #expect(shown.stderr.contains("holds no fleet records yet; load bundles with diag fleet load"), "\(shown.stderr)")
        }
    }

    @Test func anUnreachableServerIsAClearFailure() throws {
        let fixture = try FleetFixture.shared()
        let port = try PostgresServer.freePort()
        let url = "postgresql://postgres:secret@127.0.0.1:\(port)/fleet"
        let loaded = try fixture.diag(["fleet", "load", "--database", url, fixture.bundles[0]])
        #expect(loaded.status == 1)
        #expect(loaded.stderr.contains("cannot connect to the database postgresql://postgres:***@127.0.0.1:\(port)/fleet"), "\(loaded.stderr)")
        #expect(!loaded.stderr.contains("secret"))
    }

    @Test func aCorruptBundleLoadsNothing() throws {
        let fixture = try FleetFixture.shared()
        let url = try PostgresServer.shared().makeDatabase()
        let folder = try TemporaryDirectory("fleet-corrupt")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.bundles[0]))
        bytes = bytes.prefix(bytes.count / 2)
        let truncated = folder.file("truncated.tar.gz")
        try bytes.write(to: truncated)
        let notABundle = try folder.write("notes.tar", "not a tar archive at all")
        let loaded = try fixture.diag(["fleet", "load", "--database", url, truncated.path, notABundle, fixture.bundles[1]])
        #expect(loaded.status == 65, "\(loaded.stderr)")
        #expect(loaded.stderr.contains("truncated.tar.gz"), "\(loaded.stderr)")
        #expect(loaded.stderr.contains("notes.tar"), "\(loaded.stderr)")
        // The good bundle after them is loaded; the bad ones left nothing.
        let connection = try PostgresConnection(url: url)
        #expect(try connection.value("SELECT count(*) FROM bundles") == "1")
        let loadedID = try connection.value(#"SELECT "bundleID"::text FROM bundles"#)
        #expect(try connection.value(#"SELECT min("bundleID") FROM records"#) == loadedID)
    }

    @Test(arguments: [
        (#""process":"p\u0000q""#, "process"), (#""process":"p","metadata":{"k":["a\u0000"]}"#, "metadata"),
    ])
    func aRecordPostgresCannotHoldRollsTheWholeBundleBack(field: String, name: String) throws {
        let fixture = try FleetFixture.shared()
        let url = try PostgresServer.shared().makeDatabase()
        let folder = try TemporaryDirectory("fleet-nul")
        // The NUL record comes late, on a later day: a partition and thousands of rows precede it.
        var lines = (0..<3000).map { #"{"timestamp":"2026-11-2\#($0 < 1500 ? 7 : 8) 10:00:00.\#(String(format: "%06d", $0))+0000","process":"p","eventMessage":"line \#($0)"}"# }
        lines.append(#"{"timestamp":"2026-11-28 11:00:00+0000",\#(field),"eventMessage":"nul"}"#)
        let file = try folder.write("nul.ndjson", lines.joined(separator: "\n") + "\n")
        try FleetFixture.expectSuccess(fixture.diag(["import", "--store", folder.file("s").path, file]))
        let bundle = folder.file("nul.tar.gz").path
        try FleetFixture.expectSuccess(fixture.diag(["collect", "--store", folder.file("s").path, "--output", bundle]))
        try FleetFixture.expectSuccess(fixture.diag(["fleet", "load", "--database", url, fixture.bundles[2]]))
        let before = try counts(url)
        let loaded = try fixture.diag(["fleet", "load", "--database", url, bundle])
        #expect(loaded.status == 65)
        #expect(loaded.stderr.contains("record 3001 (2026-11-28T11:00:00"), "\(loaded.stderr)")
        #expect(loaded.stderr.contains("its \(name) holds a NUL character"), "\(loaded.stderr)")
        #expect(try counts(url) == before)
        let connection = try PostgresConnection(url: url)
        #expect(try connection.value("SELECT to_regclass('records_20261127')::text") == nil)
    }
}

/// The outcomes of concurrent runs, collected under a lock.
final class ProcessOutputs: @unchecked Sendable {
    // Safe: `values` is only touched while `lock` is held.
    private let lock = NSLock()
    private var values: [Result<ProcessOutput, any Error>] = []

    func append(_ value: Result<ProcessOutput, any Error>) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var all: [Result<ProcessOutput, any Error>] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}
