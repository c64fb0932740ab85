import DiagModel
import Foundation
import Testing
import TestSupport

/// `diag erase`: asks on a terminal, needs --yes elsewhere, and is refused while diagd writes.
@Suite(.serialized) struct EraseCommandTests {
    private func storeWithRecords(_ folder: TemporaryDirectory) throws -> String {
        let store = folder.file("store").path
        let lines = (1...3).map { #"{"timestamp":179594520\#($0)000000000,"eventMessage":"record \#($0)","process":"p"}"# }
        let file = try folder.write("r.ndjson", lines.joined(separator: "\n") + "\n")
        #expect(try run(BuiltProducts.path("diag"), ["import", "--store", store, file]).status == 0)
        return store
    }

    private func total(_ store: String) throws -> String {
        String(try run(BuiltProducts.path("diag"), ["stats", store]).stdout.split(separator: "\n").first ?? "")
    }

    /// `diag erase` on a pseudo-terminal with `answer` typed at the prompt.
    private func eraseAtTerminal(_ store: String, answer: String) throws -> ProcessOutput {
        let command = "'\(BuiltProducts.path("diag"))' erase --store '\(store)'"
        return try run("/usr/bin/script", ["-qec", command, "/dev/null"], input: Data((answer + "\n").utf8))
    }

    @Test func asksOnATerminalAndNeedsYesElsewhere() throws {
        let folder = try TemporaryDirectory("diag-erase")
        let store = try storeWithRecords(folder)
        let refused = try run(BuiltProducts.path("diag"), ["erase", "--store", store])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("pass --yes"))
        let declined = try eraseAtTerminal(store, answer: "n")
        #expect(declined.status == 1)
        #expect(declined.stdout.contains("Erase every record of \(store)? [y/N]"))
        #expect(try total(store).hasPrefix("Total: 3 events"))
        let accepted = try eraseAtTerminal(store, answer: "y")
        #expect(accepted.status == 0, "\(accepted.stdout)")
        #expect(try total(store).hasPrefix("Total: 0 events"))
    }

    @Test func refusedWhileDiagdWritesTheStoreThenErasedAndWritableAgain() throws {
        let folder = try TemporaryDirectory("diag-erase-daemon")
        let store = try storeWithRecords(folder)
        let daemon = try RunningDaemon(storePath: store, directory: folder)
        let refused = try run(BuiltProducts.path("diag"), ["erase", "--yes", "--store", store])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is being written by diagd or another writer"))
        daemon.stop()
        #expect(try daemon.storedRecords().filter { $0.process == "p" }.count == 3, "nothing was erased")
        let erased = try run(BuiltProducts.path("diag"), ["erase", "-y", "--store", store])
        #expect(erased.status == 0, "\(erased.stderr)")
        #expect(erased.stdout.hasPrefix("Erased "))
        #expect(try total(store).hasPrefix("Total: 0 events"))
        try daemon.start()
        defer { daemon.stop() }
        let client = try DaemonClient(path: daemon.socketPath)
        client.write(#"{"eventMessage":"after the erase"}"# + "\n" + #"{"sync":1}"# + "\n")
        #expect(client.readReply()?["synced"] != nil)
        #expect(try daemon.clientRecords().map(\.eventMessage) == ["after the erase"])
    }
}
