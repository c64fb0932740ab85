import Foundation
import Testing

@testable import DiagStore

/// DiagStore owns the store's on-disk names (`StoreLayout`): no source outside it spells them,
/// so a change of layout is one edit. Code lines are read, comments are not: a comment may say
/// "Info.json" to a reader; code must ask `StoreLayout`.
@Suite struct StoreLayoutSpellingTests {
    /// The names, as code would spell them in a string literal. (The planner's SQL names the
    /// chunk's columns and its indexes' names: that is the schema, `ChunkSchema`, not the layout
    /// of the store's files.)
    static let spellings = ["\"Persist", "/Persist", "Info.json", StoreLayout.chunkSuffix, StoreLayout.writerLock,
                            StoreLayout.readersLock,
                            StoreLayout.searchTable, StoreLayout.messageBlocksTable]

    /// Apple's `.logarchive` has a `Persist/` folder of its own (tracev3 files): DiagAppleLog
    /// reads Apple's layout, not ours, and spells that one name of Apple's.
    static let applesOwn: [(folder: String, spelling: String)] = [("Sources/DiagAppleLog/", "\"Persist")]

    static func repositoryRoot(filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The Swift sources of the product and the samples, relative to the repository's root.
    static func swiftSources() throws -> [String] {
        let root = repositoryRoot()
        var files: [String] = []
        for top in ["Sources", "samples"] {
            guard let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(top).path) else { continue }
            while let relative = walker.nextObject() as? String {
                if relative.hasSuffix(".swift") { files.append("\(top)/\(relative)") }
            }
        }
        return files.sorted()
    }

    /// The spellings `text` holds in code, with their line numbers: whole-line comments are
    /// skipped, and a line's code ends where ` //` begins a trailing comment.
    static func findings(in text: String, file: String) -> [String] {
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("//") || trimmed.hasPrefix("*") || trimmed.hasPrefix("/*") { continue }
            let code = line.range(of: " //").map { line[..<$0.lowerBound] } ?? line[...]
            for spelling in spellings where code.contains(spelling) {
                if applesOwn.contains(where: { file.hasPrefix($0.folder) && $0.spelling == spelling }) { continue }
                found.append("\(file):\(number + 1): \(spelling)")
            }
        }
        return found
    }

    @Test func noSourceOutsideDiagStoreSpellsTheStoresNames() throws {
        let root = Self.repositoryRoot()
        let sources = try Self.swiftSources()
        #expect(sources.contains("Sources/DiagBundle/BundleCollector.swift"), "the sources were not found under \(root.path)")
        var found: [String] = []
        for file in sources where !file.hasPrefix("Sources/DiagStore/") {
            found += Self.findings(in: try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8), file: file)
        }
        #expect(found.isEmpty, "spell these through DiagStore's StoreLayout:\n\(found.joined(separator: "\n"))")
    }

    @Test func theScanFindsASpellingInCodeAndNotInComments() {
        let text = """
            /// The store's Info.json, in a comment.
            let url = folder.appendingPathComponent("Info.json")  // and here
            let chunk = "0000000000000001.chunk.sqlite"
            let ours = folder.appendingPathComponent("Persist")
            """
        #expect(Self.findings(in: text, file: "Sources/DiagBundle/X.swift") == [
            "Sources/DiagBundle/X.swift:2: Info.json",
            "Sources/DiagBundle/X.swift:3: .chunk.sqlite",
            "Sources/DiagBundle/X.swift:4: \"Persist",
        ])
        #expect(Self.findings(in: text, file: "Sources/DiagAppleLog/X.swift").count == 2)
    }

    @Test func chunkFileNamesRoundTrip() {
        #expect(StoreLayout.chunkFileName(sequence: 42) == "0000000000000042.chunk.sqlite")
        #expect(StoreLayout.sequence(ofChunkFile: "0000000000000042.chunk.sqlite") == 42)
        #expect(StoreLayout.sequence(ofChunkFile: "0000000000000042.chunk.sqlite-wal") == nil)
        #expect(StoreLayout.sequence(ofChunkFile: "x.chunk.sqlite") == nil)
        #expect(StoreLayout.isChunkSideFile("0000000000000042.chunk.sqlite-journal"))
        #expect(!StoreLayout.isChunkSideFile("0000000000000042.chunk.sqlite"))
    }
}
