@testable import DiagIngest
import DiagModel
import Foundation
import Testing
import TestSupport

/// `WriterDutyCycle`: when diagd's store writer counts as saturated (committing more than half
/// of each half second), which holds the chunk finisher to `saturatedFinisherShare`.
@Suite struct WriterDutyCycleTests {
    @Test func noVerdictBeforeAWindowHasEnded() {
        var cycle = WriterDutyCycle(now: 100)
        // 0.4 s of commits in the first 0.45 s: busy, but the window is not over.
        #expect(cycle.commit(from: 100, to: 100.2) == false)
        #expect(cycle.commit(from: 100.25, to: 100.45) == false)
        #expect(cycle.look(now: 100.49) == false)
        // The window ends with the next commit: 0.5 of 0.55 s.
        #expect(cycle.commit(from: 100.45, to: 100.55) == true)
        #expect(cycle.saturated)
    }

    @Test func aWriterThatKeepsUpWithRoomToSpareIsNotSaturated() {
        var cycle = WriterDutyCycle(now: 0)
        // Four bursts in a row at 80 %, then a steady stream at 20 %.
        var time = 0.0
        for _ in 0..<40 {
            _ = cycle.commit(from: time, to: time + 0.08)
            time += 0.1
        }
        #expect(cycle.saturated)
        for _ in 0..<10 {
            _ = cycle.commit(from: time, to: time + 0.02)
            time += 0.1
        }
        #expect(!cycle.saturated)
    }

    /// Records stop: no commit ends the window, and diagd's maintenance (every second) looks.
    @Test func aLookAfterRecordsStoppedEndsTheVerdict() {
        var cycle = WriterDutyCycle(now: 0)
        #expect(cycle.commit(from: 0, to: 0.6) == true)
        #expect(cycle.look(now: 1.0) == true, "the window since the last verdict is not over")
        #expect(cycle.look(now: 1.7) == false)
    }

    /// Half exactly is not more than half; a commit begun before a window counts from its start.
    @Test func theEdges() {
        var cycle = WriterDutyCycle(now: 0)
        #expect(cycle.commit(from: 0.25, to: 0.5) == false, "0.25 of 0.5 s")
        #expect(cycle.commit(from: 0.5, to: 1.0) == true, "0.5 of 0.5 s")
        // The window began at 1.0: this commit counts 0.3 s of it, not 0.5.
        #expect(cycle.commit(from: 0.8, to: 1.3) == true, "the window is not over: the last verdict")
        #expect(cycle.look(now: 1.7) == false, "0.3 of 0.7 s")
    }

    /// diagd's store: batches appended back to back for longer than a window make the writer
    /// saturated; once records stop, the next maintenance after a window says it no longer is.
    @Test func diagdsStoreJudgesItsWriterFromItsCommits() throws {
        let folder = try TemporaryDirectory("diagd-duty-cycle")
        let store = try ChunkedRecordStore(directory: folder.file("store").path, chunkSize: 64 << 20, maximumSize: 1 << 30,
                                           maximumAge: nil, report: { _, _ in })
        defer { try? store.close() }
        // One batch, built before the clock starts and appended again and again: the time
        // between two commits is the loop's, not the making of records.
        let batch = PackedRecords((0..<200).map { index in
            LogRecord(timestamp: 1_780_000_000_000_000_000 + Int64(index) * 1_000_000, messageType: .default,
                      subsystem: "com.example.duty", eventMessage: "record \(index) \(String(repeating: "x", count: 100))")
        })
        #expect(!store.writerSaturated)
        let end = Date(timeIntervalSinceNow: 1.2)
        while Date() < end { try store.append(batch) }
        #expect(store.writerSaturated, "a writer that never waited for records")
        // Records stopped: a window passes with no commit.
        Thread.sleep(forTimeInterval: 0.6)
        try store.maintain(idle: false)
        #expect(!store.writerSaturated)
    }
}
