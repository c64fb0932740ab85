import Foundation
import Testing
import TestSupport

/// Readers started together on a version-1 store all read it (issue 13, item 7): one migrates
/// under the writer lock, the others wait for it and find nothing left to do.
struct ConcurrentMigrationTests {
    @Test func fourReadersOfAVersion1StoreAllSucceed() throws {
        let folder = try TemporaryDirectory("diag-concurrent-migration")
        let store = try Version1Store(in: folder, chunks: [20_000, 20_000, 20_000])
        let total = store.expected.values.reduce(0) { $0 + $1.count }
        let processes: [(Process, Pipe, Pipe)] = try (0..<4).map { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuiltProducts.path("diag"))
            process.arguments = ["show", "--info", "--debug", "--style", "ndjson", store.url.path]
            let output = Spawning.pipe()
            let errors = Spawning.pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.spawn()
            return (process, output, errors)
        }
        for (process, output, errors) in processes {
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            try #require(process.waitForExit(seconds: 600))
            #expect(process.terminationStatus == 0, "\(complaint)")
            #expect(printed.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } == total)
        }
    }
}
