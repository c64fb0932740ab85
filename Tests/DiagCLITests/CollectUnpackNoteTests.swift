import Foundation
import Testing
import TestSupport

/// A bundle `collect` makes must not be refused, without a word, by the reader's bound against
/// decompression bombs: a 10M-record store made a 5 GB bundle that `diag show` refused at its
/// 4 GiB default. `collect` says so when it writes such a bundle, and what opens it. The bound is
/// lowered here with DIAG_UNPACK_LIMIT, which moves it for both commands.
@Suite struct CollectUnpackNoteTests {
    @Test func aBundleOverTheUnpackBoundIsNamedByCollectWithWhatOpensIt() throws {
        let folder = try TemporaryDirectory("collect-unpack-note")
        let store = try CollectSizeTests.store(in: folder)
        let bundle = folder.file("large.tar.gz").path
        let small = ["DIAG_UNPACK_LIMIT": "1M", "XDG_CACHE_HOME": folder.file("cache").path]
        let made = try diag(["collect", "--store", store, "--output", bundle], environment: small)
        #expect(made.status == 0, "\(made.stderr)")
        let note = try #require(made.stderr.split(separator: "\n").first { $0.hasPrefix("Note: this bundle unpacks to") }, "\(made.stderr)")
        let suggested = try #require(note.firstMatch(of: /DIAG_UNPACK_LIMIT=(\d+M)/)?.1)
        // The size the note gives is what the readers count, to the byte: it opens the bundle,
        // and a byte less does not (the manifest was left out of it, and at 10M records the
        // rounding to MiB no longer covered it).
        let bytes = try #require(note.firstMatch(of: /unpacks to (\d+) bytes/).flatMap { Int($0.1) })
        let exact = try diag(["verify", bundle], environment: ["DIAG_UNPACK_LIMIT": String(bytes), "XDG_CACHE_HOME": folder.file("cache").path])
        #expect(exact.status == 0, "\(exact.stderr)")
        let short = try diag(["verify", bundle], environment: ["DIAG_UNPACK_LIMIT": String(bytes - 1), "XDG_CACHE_HOME": folder.file("cache").path])
        #expect(short.status == 65, "\(short.stderr)")

        let refused = try diag(["show", bundle], environment: small)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("DIAG_UNPACK_LIMIT raises it"), "\(refused.stderr)")

        let opened = try diag(["show", "--info", "--debug", "--signpost", "--style", "ndjson", bundle],
                              environment: ["DIAG_UNPACK_LIMIT": String(suggested), "XDG_CACHE_HOME": folder.file("cache").path])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout.split(separator: "\n").count == CollectSizeTests.recordCount)

        // Within the bound, collect says nothing of it.
        let quiet = try diag(["collect", "--store", store, "--output", folder.file("small.tar.gz").path],
                             environment: ["XDG_CACHE_HOME": folder.file("cache").path])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("Note: this bundle unpacks to"), "\(quiet.stderr)")
    }
}
