import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// Version 3 added `signpostScope`: a version-2 store (chunks without the column) gains it in
/// place when opened, keeps every record, and then stores scopes like any other field.
@Suite struct SignpostScopeMigrationTests {
    /// A store written now, then taken back to version 2: the column dropped, the versions lowered.
    static func version2Store(in folder: TemporaryDirectory) throws -> (URL, [LogRecord]) {
        let url = folder.file("v2.logarchive")
        var records = (0..<300).map { StoreTestRecords.full($0) }
        for index in records.indices { records[index].signpostScope = nil }
        do {
            let store = try LogStore.open(at: url, create: true, options: .init(chunkSizeLimit: 16 << 10))
            for start in stride(from: 0, to: records.count, by: 30) { try store.append(Array(records[start..<start + 30])) }
            try store.close()
        }
        let persist = url.appendingPathComponent("Persist")
        let files = try FileManager.default.contentsOfDirectory(atPath: persist.path).filter { $0.hasSuffix(".chunk.sqlite") }
        #expect(files.count > 1)
        for file in files {
            let database = try Database(path: persist.appendingPathComponent(file).path)
            try database.execute("ALTER TABLE records DROP COLUMN signpostScope")
            try database.setUserVersion(2)
        }
        let infoURL = url.appendingPathComponent("Info.json")
        var info = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: infoURL)) as? [String: Any])
        info["formatVersion"] = 2
        try JSONSerialization.data(withJSONObject: info).write(to: infoURL)
        return (url, records)
    }

    @Test func aVersion2StoreGainsTheColumnAndKeepsItsRecords() throws {
        let folder = try TemporaryDirectory()
        let (url, records) = try Self.version2Store(in: folder)
        let saved = try JSONDecoder().decode(StoreInfo.self, from: Data(contentsOf: url.appendingPathComponent("Info.json")))
        #expect(saved.formatVersion == 2)

        // A reader's open upgrades it (the column is added; rows are not rewritten).
        let reader = try LogStore.openForReading(at: url)
        #expect(try reader.records().all() == records)
        try reader.close()
        for file in try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("Persist").path) where file.hasSuffix(".chunk.sqlite") {
            let database = try Database(path: url.appendingPathComponent("Persist/\(file)").path, options: .init(readOnly: true))
            #expect(try database.userVersion() == ChunkSchema.version)
            #expect(try database.columnNames(ofTable: "records").contains("signpostScope"))
        }

        let writer = try LogStore.open(at: url)
        #expect(writer.info.formatVersion == ChunkSchema.version)
        var scoped = StoreTestRecords.full(1_000)
        scoped.signpostScope = "system"
        try writer.append([scoped])
        #expect(try writer.records().all().last == scoped)
        try writer.close()
    }

    @Test func aChunkThatAlreadyHasTheColumnIsLeftAsItIs() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("half.chunk.sqlite").path
        let database = try Database(path: path)
        try database.execute(ChunkSchema.createRecords)
        try database.setUserVersion(2)
        try ChunkMigration.migrate(chunkAt: path, batchSize: 10)
        #expect(try database.userVersion() == ChunkSchema.version)
        #expect(try database.columnNames(ofTable: "records") == Set(ChunkSchema.columns))
    }
}
