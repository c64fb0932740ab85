import Foundation
import DiagModel
import DiagQuery
import Testing

/// `SignpostAnalysis`: begins and ends paired per scope owner, subsystem, category, name and ID.
@Suite struct SignpostPairingTests {
    static func signpost(
        _ type: String, _ name: String, id: Int64?, at milliseconds: Int64, pid: Int64 = 100, tid: Int64 = 1,
        scope: String? = nil, process: String = "sync-core", message: String = ""
    ) -> LogRecord {
        LogRecord(
            timestamp: 1_800_000_000_000_000_000 + milliseconds * 1_000_000, eventType: .signpostEvent,
            process: process, processID: pid, subsystem: "com.example.sync", category: "sync", threadID: tid,
            eventMessage: message, signpostID: id, signpostName: name, signpostType: type, signpostScope: scope)
    }

    static func analyse(_ records: [LogRecord], openLimit: Int = 100_000, activities: Bool = false) -> (SignpostAnalysis, [Interval]) {
        var analysis = SignpostAnalysis(openLimit: openLimit, activities: activities)
        var intervals: [Interval] = []
        for record in records.sorted(by: { $0.timestamp < $1.timestamp }) {
            if let interval = analysis.take(record) { intervals.append(interval) }
        }
        intervals += analysis.finish()
        return (analysis, intervals)
    }

    @Test func threadScopedIntervalsWithOneIDOnTwoThreadsStayApart() {
        let (analysis, intervals) = Self.analyse([
            Self.signpost("begin", "fetch", id: 5, at: 0, tid: 1, scope: "thread", message: "t1"),
            Self.signpost("begin", "fetch", id: 5, at: 10, tid: 2, scope: "thread", message: "t2"),
            Self.signpost("end", "fetch", id: 5, at: 15, tid: 2, scope: "thread"),
            Self.signpost("end", "fetch", id: 5, at: 100, tid: 1, scope: "thread"),
        ])
        #expect(analysis.intervalCount == 2)
        // Paired by thread: t2 took 5 ms, t1 100 ms (FIFO by name and ID alone would give 15 and 90).
        let byMessage = Dictionary(uniqueKeysWithValues: intervals.map { ($0.begin.message, $0.duration / 1_000_000) })
        #expect(byMessage == ["t1": 100, "t2": 5])
        #expect(analysis.unmatchedBeginCount == 0 && analysis.unmatchedEndCount == 0)
    }

    @Test func processScopedIntervalsWithOneIDInTwoProcessesStayApart() {
        let (analysis, intervals) = Self.analyse([
            Self.signpost("begin", "upload", id: 9, at: 0, pid: 100, message: "A"),
            Self.signpost("begin", "upload", id: 9, at: 1, pid: 200, message: "B"),
            Self.signpost("end", "upload", id: 9, at: 3, pid: 200),
            Self.signpost("end", "upload", id: 9, at: 50, pid: 100, tid: 7),
        ])
        #expect(analysis.intervalCount == 2)
        let byMessage = Dictionary(uniqueKeysWithValues: intervals.map { ($0.begin.message, $0.duration / 1_000_000) })
        // Process scope: the end on another thread of process 100 still ends A.
        #expect(byMessage == ["A": 50, "B": 2])
    }

    @Test func systemScopedIntervalsPairAcrossProcesses() {
        let (analysis, intervals) = Self.analyse([
            Self.signpost("begin", "handoff", id: 3, at: 0, pid: 100, scope: "system"),
            Self.signpost("end", "handoff", id: 3, at: 20, pid: 200, scope: "system"),
            Self.signpost("begin", "handoff", id: 4, at: 0, pid: 100),
            Self.signpost("end", "handoff", id: 4, at: 20, pid: 200),
        ])
        #expect(intervals.map { $0.duration / 1_000_000 } == [20])
        #expect(analysis.unmatchedBeginCount == 1 && analysis.unmatchedEndCount == 1)
    }

    @Test func overlappingIntervalsOfOneNamePairByID() {
        let (analysis, intervals) = Self.analyse([
            Self.signpost("begin", "export", id: 1, at: 0, message: "batch 1"),
            Self.signpost("begin", "export", id: 2, at: 10, message: "batch 2"),
            Self.signpost("begin", "export", id: 3, at: 20, message: "batch 3"),
            Self.signpost("end", "export", id: 2, at: 30),
            Self.signpost("end", "export", id: 1, at: 70),
            Self.signpost("end", "export", id: 3, at: 21),
        ])
        #expect(analysis.intervalCount == 3)
        let byMessage = Dictionary(uniqueKeysWithValues: intervals.map { ($0.begin.message, $0.duration / 1_000_000) })
        #expect(byMessage == ["batch 1": 70, "batch 2": 20, "batch 3": 1])
        let summary = try! #require(analysis.names.values.first)
        #expect(summary.statistics.count == 3 && summary.statistics.total == 91_000_000)
        #expect(summary.slowest.map(\.begin.message) == ["batch 1", "batch 2", "batch 3"])
    }

    @Test func unmatchedBeginsAndEndsAreReportedNotDropped() {
        let (analysis, _) = Self.analyse([
            Self.signpost("begin", "import", id: 1, at: 0, message: "never ended"),
            Self.signpost("end", "import", id: 2, at: 5, message: "never begun"),
            Self.signpost("begin", "import", id: 3, at: 6),
            Self.signpost("end", "import", id: 3, at: 8),
            Self.signpost("end", "other", id: 3, at: 9, message: "another name"),
            Self.signpost("event", "push", id: 3, at: 9),
            Self.signpost("event", "push", id: 4, at: 10),
        ])
        #expect(analysis.intervalCount == 1)
        #expect(analysis.unmatchedBeginCount == 1)
        #expect(analysis.unmatchedBegins.map(\.message) == ["never ended"])
        #expect(analysis.unmatchedEndCount == 2)
        #expect(analysis.unmatchedEnds.map(\.message) == ["never begun", "another name"])
        #expect(analysis.eventCount == 2)
        #expect(analysis.events.values.sorted() == [2])
    }

    @Test func openIntervalsPastTheLimitAreGivenUpOldestFirstAndCounted() {
        var records: [LogRecord] = []
        for id in 0..<10 { records.append(Self.signpost("begin", "fetch", id: Int64(id), at: Int64(id))) }
        for id in 0..<10 { records.append(Self.signpost("end", "fetch", id: Int64(id), at: 100 + Int64(id))) }
        let (analysis, _) = Self.analyse(records, openLimit: 4)
        #expect(analysis.openOverflowed == 6)
        #expect(analysis.intervalCount == 4)
        // The four kept are the newest: IDs 6 to 9; the ends of 0 to 5 are unmatched.
        #expect(analysis.unmatchedEndCount == 6)
        #expect(analysis.unmatchedEnds.compactMap(\.signpostID) == [0, 1, 2, 3, 4, 5])
    }

    @Test func statisticsAgreeWithAPlainComputation() throws {
        var generator = SystemRandomNumberGenerator()
        for count in [1, 2, 7, 100, 4096, 20_000] {
            var records: [LogRecord] = []
            var durations: [Int64] = []
            for index in 0..<count {
                // Log-spread durations from 10 µs to 20 s.
                let duration = Int64(pow(10, Double.random(in: 4...10.3, using: &generator)))
                durations.append(duration)
                let start = Int64(index) * 1_000_000_000_000
                var begin = Self.signpost("begin", "import", id: Int64(index), at: 0)
                begin.timestamp += start
                var end = Self.signpost("end", "import", id: Int64(index), at: 0)
                end.timestamp += start + duration
                records += [begin, end]
            }
            let (analysis, _) = Self.analyse(records)
            let statistics = try #require(analysis.names.values.first?.statistics)
            let sorted = durations.sorted()
            #expect(statistics.count == count)
            #expect(statistics.total == durations.reduce(0, +))
            #expect(statistics.minimum == sorted.first && statistics.maximum == sorted.last)
            #expect(abs(statistics.mean - Double(durations.reduce(0, +)) / Double(count)) < 1)
            for fraction in [0.5, 0.9, 0.99] {
                let plain = sorted[Int((fraction * Double(count)).rounded(.up)) - 1]
                let got = statistics.percentile(fraction)
                if count <= DurationStatistics.exactLimit {
                    #expect(got == plain, "p\(fraction) of \(count)")
                } else {
                    #expect(abs(Double(got - plain)) <= Double(plain) * 0.006, "p\(fraction) of \(count): \(got) vs \(plain)")
                }
            }
            var buckets = [Int](repeating: 0, count: DurationStatistics.bucketLabels.count)
            for duration in durations { buckets[DurationStatistics.bucketBounds.firstIndex { duration < $0 } ?? 5] += 1 }
            #expect(statistics.buckets == buckets)
        }
    }

    @Test func anActivityIsOneIntervalFromCreationToItsLastRecordAcrossProcesses() {
        let base: Int64 = 1_800_000_000_000_000_000
        let records = [
            LogRecord(timestamp: base, eventType: .activityCreateEvent, process: "scheduler", processID: 1, activityIdentifier: 42, eventMessage: "export"),
            LogRecord(timestamp: base + 5_000_000, process: "sync-core", processID: 2, activityIdentifier: 42, eventMessage: "exporting"),
            LogRecord(timestamp: base + 30_000_000, process: "transport", processID: 3, activityIdentifier: 42, eventMessage: "uploaded"),
            LogRecord(timestamp: base + 31_000_000, process: "sync-core", processID: 2, activityIdentifier: 43, eventMessage: "other"),
            LogRecord(timestamp: base + 40_000_000, process: "scheduler", processID: 1, activityIdentifier: 42, eventMessage: "completed"),
            LogRecord(timestamp: base + 41_000_000, process: "notifier", processID: 4, activityIdentifier: 0, eventMessage: "no activity"),
        ]
        let (analysis, intervals) = Self.analyse(records, activities: true)
        let export = try! #require(intervals.first { $0.begin.name == "export" })
        #expect(export.kind == .activity)
        #expect(export.duration == 40_000_000)
        #expect(export.processes == ["scheduler", "sync-core", "transport"])
        #expect(export.recordCount == 4 && export.endMessage == "completed")
        #expect(intervals.first { $0.begin.signpostID == 43 }?.begin.name == "(activity)")
        #expect(intervals.count == 2)
        #expect(analysis.activityNames.count == 2)
    }
}
