import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// Hostile and damaged stores: each gives an error naming the file, and changes nothing.
@Suite struct DamagedStoreTests {
    /// Two sealed chunks (hours apart) and an open one.
    private func store(_ folder: TemporaryDirectory) throws -> LogStore {
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        for chunk in 0..<3 {
            try store.append((0..<200).map { StoreTestRecords.full($0, timestamp: StoreTestRecords.base + Int64(chunk) * 3_600_000_000_000 + Int64($0)) })
            if chunk < 2 { try store.rotate() }
        }
        try store.close()
        return store
    }

    private func snapshot(_ url: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: url.path)!
        while let name = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = url.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue, !name.hasSuffix("-shm") {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    @Test(arguments: [
        ("", "not valid JSON"),
        ("{\"formatVersion\": 2, \"identif", "not valid JSON"),
        ("[1, 2, 3]", "wrong value"),
        ("{\"identifier\": \"x\"}", "lacks formatVersion"),
        ("{\"formatVersion\": \"two\", \"identifier\": \"x\"}", "wrong value at formatVersion"),
        ("{\"formatVersion\": 2, \"identifier\": \"x\", \"chunks\": [{\"file\": 3}]}", "chunks[0].file"),
        ("{\"formatVersion\": 0, \"identifier\": \"x\"}", "formatVersion 0 is not a store version"),
        ("{\"formatVersion\": 99, \"identifier\": \"x\"}", "newer than this tool"),
    ])
    func badInfoJSONIsAnErrorNamingTheFileAndChangesNothing(contents: String, reason: String) throws {
        let folder = try TemporaryDirectory()
        let url = try store(folder).url
        let infoURL = url.appendingPathComponent("Info.json")
        try Data(contents.utf8).write(to: infoURL)
        let before = try snapshot(url)
        let error = #expect(throws: StoreError.self) { try LogStore.open(at: url) }
        #expect(error?.path == infoURL.path)
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
        #expect(try snapshot(url) == before)
    }

    @Test func lostInfoJSONIsRebuiltFromTheChunks() throws {
        let folder = try TemporaryDirectory()
        let url = try store(folder).url
        try FileManager.default.removeItem(at: url.appendingPathComponent("Info.json"))
        let reopened = try LogStore.open(at: url)
        #expect(reopened.info.recordCount == 600)
        #expect(reopened.info.chunks.count == 3)
        #expect(try reopened.records().all().count == 600)
    }

    @Test func aGarbageChunkFileIsNamedAndTheOthersStayReadable() throws {
        let folder = try TemporaryDirectory()
        let url = try store(folder).url
        let garbage = url.appendingPathComponent("Persist/0000000000000009.chunk.sqlite")
        try Data(String(repeating: "this is not SQLite ", count: 300).utf8).write(to: garbage)
        let before = try snapshot(url)
        let error = #expect(throws: StoreError.self) { try LogStore.open(at: url) }
        #expect(error?.kind == .badChunk)
        #expect(error?.path == garbage.path)
        #expect(try snapshot(url) == before)
        try FileManager.default.removeItem(at: garbage)
        #expect(try LogStore.open(at: url).records().all().count == 600)
    }

    @Test func aTruncatedChunkIsNamedWhenReadAndTheOthersStayReadable() throws {
        let folder = try TemporaryDirectory()
        let original = try store(folder)
        let damaged = original.chunkPath(original.info.chunks[0].file)
        let size = try FileManager.default.attributesOfItem(atPath: damaged)[.size] as! Int
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: damaged))
        try handle.truncate(atOffset: UInt64(size / 3))
        try handle.close()
        let store = try LogStore.open(at: original.url, options: .readOnly)
        let error = #expect(throws: StoreError.self) { _ = try store.records().all() }
        #expect(error?.path == damaged)
        #expect(error?.kind == .badChunk)
        let later = StoreFilter(start: StoreTestRecords.base + 3_600_000_000_000)
        #expect(try store.records(filter: later).all().count == 400)
        let others = store.info.chunks.dropFirst().map { store.chunkPath($0.file) }
        for path in others {
            #expect(try Database(path: path, options: .init(readOnly: true)).scalarText("PRAGMA integrity_check") == "ok")
        }
    }

    @Test func aRowWithAnUnknownLevelIsNamedWithItsIdAndColumn() throws {
        let folder = try TemporaryDirectory()
        let store = try self.store(folder)
        let path = store.chunkPath(store.info.chunks[1].file)
        try Database(path: path).execute("UPDATE records SET messageType = 5 WHERE id = 7")
        let error = #expect(throws: StoreError.self) { _ = try store.records().all() }
        #expect(error?.kind == .badRecord)
        #expect(error?.description == "\(path): record id 7: column messageType holds 5; accepted: 0, 1, 2, 16 or 17")
    }

    @Test func aStorePathThatIsAFileIsRefused() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("plain.txt", "hello")
        let error = #expect(throws: StoreError.self) { try LogStore.open(at: URL(fileURLWithPath: path), create: true) }
        #expect(error?.description.hasPrefix(path) == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello")
    }
}

@Suite struct HostileInfoTests {
    @Test func infoEntriesCannotNameFilesOutsidePersistOrCountAChunkTwice() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true)
        try store.append((0..<30).map { StoreTestRecords.full($0) })
        try store.close()
        try folder.write("outside.chunk.sqlite", "not to be touched")
        var info = try JSONDecoder().decode(StoreInfo.self, from: Data(contentsOf: url.appendingPathComponent("Info.json")))
        let real = info.chunks[0]
        var traversal = real
        traversal.file = "../../outside.chunk.sqlite"
        traversal.sequence = 7
        var renumbered = real
        renumbered.sequence = 99
        info.chunks = [real, renumbered, traversal, real]
        try JSONEncoder().encode(info).write(to: url.appendingPathComponent("Info.json"))

        let reader = try LogStore.open(at: url, options: .readOnly)
        #expect(reader.info.chunks.map(\.file) == [real.file])
        #expect(reader.info.chunks[0].sequence == 1)
        #expect(try reader.records().all().count == 30)
        #expect(try reader.count() == 30)
        #expect(try String(contentsOf: folder.file("outside.chunk.sqlite"), encoding: .utf8) == "not to be touched")
    }
}

@Suite struct ChunkBeingCreatedTests {
    @Test func anEmptyChunkFileIsSkippedByReadersAndCompletedByWriters() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true)
        try store.append((0..<5).map { StoreTestRecords.full($0) })
        try store.close()
        // What a reader may see while a writer creates the next chunk: an empty file, unlisted.
        #expect(FileManager.default.createFile(atPath: url.appendingPathComponent("Persist/0000000000000002.chunk.sqlite").path, contents: Data()))
        let reader = try LogStore.open(at: url, options: .readOnly)
        #expect(try reader.records().all().count == 5)
        #expect(try reader.count() == 5)
        let writer = try LogStore.open(at: url)
        #expect(writer.info.chunks.count == 2)
        try writer.append([StoreTestRecords.full(5)])
        #expect(try writer.records().all() == (0..<6).map { StoreTestRecords.full($0) })
    }
}
