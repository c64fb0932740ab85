import DiagModel
import Dispatch
import Foundation
import Testing
import TestSupport
@testable import DiagStore

@Suite struct ConcurrentUseTests {
    @Test func appendsSealingAndReadsOnSeparateThreadsLoseNothing() throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true,
                                      options: .init(chunkSizeLimit: 48 << 10, sealOnRotation: false))
        let batches = 40
        let group = DispatchGroup()
        let failures = FailureLog()
        DispatchQueue.global().async(group: group) {
            do {
                for batch in 0..<batches {
                    try store.append((0..<25).map { StoreTestRecords.full(batch * 25 + $0) })
                }
            } catch { failures.add("append: \(error)") }
        }
        DispatchQueue.global().async(group: group) {
            do {
                for _ in 0..<40 { try store.sealPendingChunks() }
            } catch { failures.add("seal: \(error)") }
        }
        DispatchQueue.global().async(group: group) {
            do {
                var last: Int64 = 0
                for _ in 0..<40 {
                    let count = try store.count()
                    if count < last { failures.add("count went back from \(last) to \(count)") }
                    last = count
                    let records = try store.records().all()
                    if records.map(\.timestamp) != records.map(\.timestamp).sorted() { failures.add("out of order") }
                }
            } catch { failures.add("read: \(error)") }
        }
        group.wait()
        #expect(failures.messages.isEmpty)
        // Closes the last chunk whatever its size (that the last batch filled it depended on
        // how many bytes a chunk takes), so that every chunk can be sealed.
        try store.rotate()
        try store.sealPendingChunks()
        #expect(try store.records().all() == (0..<(batches * 25)).map { StoreTestRecords.full($0) })
        #expect(store.info.chunks.count > 2)
        for chunk in store.info.chunks {
            #expect(chunk.sealed)
            let database = try Database(path: store.chunkPath(chunk.file), options: .init(readOnly: true))
            #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
        }
    }
}

/// Messages gathered from several threads.
final class FailureLog: @unchecked Sendable {
    // Safe: every access goes through `lock`.
    private let lock = NSLock()
    private var stored: [String] = []

    func add(_ message: String) { lock.withLock { stored.append(message) } }
    var messages: [String] { lock.withLock { stored } }
}
