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
        #expect(cycle.commit(busy: 0.2, endingAt: 100.2) == false)
        #expect(cycle.commit(busy: 0.2, endingAt: 100.45) == false)
        #expect(cycle.look(now: 100.49) == false)
        // The window ends with the next commit: 0.5 of 0.55 s.
        #expect(cycle.commit(busy: 0.1, endingAt: 100.55) == true)
        #expect(cycle.saturated)
    }

    @Test func aWriterThatKeepsUpWithRoomToSpareIsNotSaturated() {
        var cycle = WriterDutyCycle(now: 0)
        // Four seconds at 80 %, then one at 20 %.
        var time = 0.0
        for _ in 0..<40 {
            time += 0.1
            _ = cycle.commit(busy: 0.08, endingAt: time)
        }
        #expect(cycle.saturated)
        for _ in 0..<10 {
            time += 0.1
            _ = cycle.commit(busy: 0.02, endingAt: time)
        }
        #expect(!cycle.saturated)
    }

    /// Records stop: no commit ends the window, and diagd's maintenance (every second) looks.
    @Test func aLookAfterRecordsStoppedEndsTheVerdict() {
        var cycle = WriterDutyCycle(now: 0)
        #expect(cycle.commit(busy: 0.6, endingAt: 0.6) == true)
        #expect(cycle.look(now: 1.0) == true, "the window since the last verdict is not over")
        #expect(cycle.look(now: 1.7) == false)
    }

    /// Half exactly is not more than half; a commit counts in the window it ends in, whole.
    @Test func theEdges() {
        var cycle = WriterDutyCycle(now: 0)
        #expect(cycle.commit(busy: 0.25, endingAt: 0.5) == false, "0.25 of 0.5 s")
        #expect(cycle.commit(busy: 0.2, endingAt: 0.9) == false, "the window is not over")
        #expect(cycle.commit(busy: 0.1, endingAt: 1.0) == true, "0.3 of 0.5 s")
        #expect(cycle.commit(busy: -1, endingAt: 1.6) == false, "a clock read backwards counts nothing")
    }

    /// A commit slowed by others' work on the cores: long in wall time, little of the writer's
    /// CPU. Not saturated: the writer is not what holds ingest back.
    @Test func wallTimeWaitingForACoreIsNotBusy() {
        var cycle = WriterDutyCycle(now: 0)
        #expect(cycle.commit(busy: 0.15, endingAt: 0.6) == false)
        #expect(cycle.commit(busy: 0.2, endingAt: 1.2) == false)
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
        // Until a window ends with the writer more than half of it on a core: the first, unless
        // the tests beside this one leave this thread less than half a core all along.
        let deadline = Date(timeIntervalSinceNow: 60)
        var appended = 0
        while !store.writerSaturated, Date() < deadline {
            try store.append(batch)
            appended += 1
        }
        #expect(store.writerSaturated, "a writer that never waited for records, \(appended) batches")
        // Records stopped: a window passes with no commit.
        Thread.sleep(forTimeInterval: 0.6)
        try store.maintain(idle: false)
        #expect(!store.writerSaturated)
    }
}
