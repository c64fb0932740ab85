import DiagModel
import Foundation
import Testing
@testable import DiagAppleLog
import TestSupport

/// The whole path over a tracev3 file written by the test: chunk sets (LZ4 and stored), every
/// tracepoint kind, private data, oversize data, backtraces, state and simple dumps, uuidtext
/// and dsc lookups, and timesync dates.
@Suite struct SyntheticTraceV3Tests {
    static func records(_ archive: SyntheticArchive) throws -> [LogRecord] {
        let reader = try AppleLogArchive(path: archive.path)
        return try reader.records(ofFile: archive.tracePath)
    }

    @Test func everyChunkKindGivesItsRecords() throws {
        let archive = try SyntheticArchive()
        let records = try Self.records(archive)
        #expect(records.count == 13)
        #expect(records.map(\.timestamp) == records.map(\.timestamp).sorted())
        #expect(records.filter { $0.eventType == .logEvent }.count == 8)  // 6 logs, backtrace log, simple dump
        #expect(records.filter { $0.eventType == .activityCreateEvent }.count == 1)
        #expect(records.filter { $0.eventType == .signpostEvent }.count == 1)
        #expect(records.filter { $0.eventType == .traceEvent }.count == 1)
        #expect(records.filter { $0.eventType == .lossEvent }.count == 1)
        #expect(records.filter { $0.eventType == .stateEvent }.count == 1)
    }

    @Test func logWithPrivateDataActivityAndSubsystem() throws {
        let records = try Self.records(try SyntheticArchive())
        let record = try #require(records.first { $0.formatString == SyntheticArchive.formats[0] })
        #expect(record.eventMessage == "cart has 3 items (alice) 7 ff")
        #expect(record.messageType == .error)
        #expect(record.processID == 4242)
        #expect(record.userID == 501)
        #expect(record.threadID == 0x1234)
        #expect(record.process == "syncd")
        #expect(record.processImagePath == "/usr/libexec/syncd")
        #expect(record.sender == "syncd")
        #expect(record.subsystem == "com.example.sync")
        #expect(record.category == "engine")
        #expect(record.activityIdentifier == 0x77)
        // traceID: format reference << 32 | flags << 16 | log type << 8 | record type.
        let traceID = UInt64(SyntheticArchive.mainStart) << 32 | 0x0303 << 16 | 0x10 << 8 | 0x04
        #expect(record.traceID == Int64(bitPattern: traceID))
        #expect(record.metadata?["bootUUID"] == .string("11112222-3333-4444-5555-666677778888"))
        #expect(record.metadata?["machTimestamp"] == .int(Int64(SyntheticArchive.baseTime + 240)))
    }

    @Test func timesyncGivesTheWallClock() throws {
        let records = try Self.records(try SyntheticArchive())
        let record = try #require(records.first { $0.formatString == SyntheticArchive.formats[0] })
        // 240 ticks after the sync record, at 125/3 ns a tick (Apple silicon's timebase).
        #expect(record.timestamp == SyntheticArchive.syncWall + 10_000)
    }

    @Test func withoutTimesyncTheHeaderGivesTheWallClock() throws {
        let archive = try SyntheticArchive(withTimesync: false)
        let records = try Self.records(archive)
        let record = try #require(records.first { $0.formatString == SyntheticArchive.formats[0] })
        // Header: 1_700_000_000 s at continuous time 24_000_000; the event is 240 ticks later.
        #expect(record.timestamp == 1_700_000_000_000_000_000 + 10_000)
    }

    @Test func activitySignpostTraceAndLoss() throws {
        let records = try Self.records(try SyntheticArchive())
        let activity = try #require(records.first { $0.eventType == .activityCreateEvent })
        #expect(activity.eventMessage == "Beginning sync")
        #expect(activity.activityIdentifier == 0x99)
        #expect(activity.parentActivityIdentifier == 0x77)
        let signpost = try #require(records.first { $0.eventType == .signpostEvent })
        #expect(signpost.signpostID == 0xABCDEF)
        #expect(signpost.signpostName == "interval")
        #expect(signpost.signpostType == "begin")
        #expect(signpost.signpostScope == "process")
        #expect(signpost.subsystem == "com.example.sync")
        let trace = try #require(records.first { $0.eventType == .traceEvent })
        #expect(trace.eventMessage == "trace 9")
        let loss = try #require(records.first { $0.eventType == .lossEvent })
        #expect(loss.eventMessage.hasPrefix("lost 3 unreliable messages from "))
    }

    @Test func oversizeDataFromALaterChunkSet() throws {
        let records = try Self.records(try SyntheticArchive())
        let record = try #require(records.first { $0.formatString == SyntheticArchive.formats[2] })
        #expect(record.eventMessage == "upload " + SyntheticArchive.oversizePayload)
        #expect(record.messageType == .info)
    }

    @Test func sharedCacheAndUUIDRelativeStrings() throws {
        let records = try Self.records(try SyntheticArchive())
        let cached = try #require(records.first { $0.formatString == "cache says %s" })
        #expect(cached.eventMessage == "cache says from dsc")
        #expect(cached.senderImagePath == "/System/Library/Frameworks/CoreData.framework/CoreData")
        #expect(cached.sender == "CoreData")
        #expect(cached.process == "syncd")
        #expect(cached.messageType == .debug)
        let library = try #require(records.first { $0.formatString == "library says hi" })
        #expect(library.senderImagePath == "/usr/lib/libsync.dylib")
        #expect(library.sender == "libsync.dylib")
    }

    @Test func missingFormatStringKeepsTheRecordAndSaysWhatIsMissing() throws {
        let records = try Self.records(try SyntheticArchive())
        let record = try #require(records.first { $0.messageType == .fault })
        #expect(record.formatString == nil)
        #expect(record.eventMessage.contains("has no string at 0x9999"))
        #expect(record.eventMessage.hasSuffix("values: 42"))
        #expect(record.processID == 4242)
        #expect(record.subsystem == "com.example.sync")
    }

    @Test func decodersWidthAndPrecision() throws {
        let records = try Self.records(try SyntheticArchive())
        let record = try #require(records.first { $0.formatString == SyntheticArchive.formats[4] })
        #expect(record.eventMessage == "done true NO 2023-11-14 22:13:20 [35: Resource temporarily unavailable]    ab|7   |0042|obj")
    }

    @Test func backtraceBeforeTheValues() throws {
        let records = try Self.records(try SyntheticArchive())
        let record = try #require(records.first { $0.formatString == SyntheticArchive.formats[6] })
        #expect(record.eventMessage == "bt after backtrace")
        #expect(record.metadata?["backtrace"] == .object(["frames": .array([
            .object(["imageOffset": .int(0x1234), "imageUUID": .string(TraceV3Writer().libraryUUID.description)]),
        ])]))
    }

    @Test func stateAndSimpleDumps() throws {
        let records = try Self.records(try SyntheticArchive())
        let state = try #require(records.first { $0.eventType == .stateEvent })
        #expect(state.eventMessage == "State dump: sync state\npending=2")
        #expect(state.activityIdentifier == 0x77)
        #expect(state.senderImagePath == "/usr/lib/libsync.dylib")
        let simple = try #require(records.first { $0.eventMessage == "a simple dump" })
        #expect(simple.subsystem == "com.apple.simple")
        #expect(simple.messageType == .error)
        #expect(simple.threadID == 0x99)
    }

    @Test func filesOfAFolderThatOverlapAreMergedByTime() throws {
        let archive = try SyntheticArchive()
        // The next file holds the same records: it overlaps the first one entirely.
        try FileManager.default.copyItem(atPath: archive.tracePath, toPath: archive.path + "/Persist/0000000000000002.tracev3")
        let reader = try AppleLogArchive(path: archive.path)
        #expect(reader.groups.count == 1 && reader.groups[0].count == 2)
        var group = AppleLogGroupReader(archive: reader, files: reader.groups[0])
        var timestamps: [Int64] = []
        while let record = try group.next() { timestamps.append(record.timestamp) }
        #expect(timestamps.count == 26)
        #expect(timestamps == timestamps.sorted())
    }

    @Test func diagShowQueriesTheArchiveWithAPredicate() throws {
        let archive = try SyntheticArchive()
        let output = try run(BuiltProducts.path("diag"), [
            "show", archive.path, "--info", "--debug", "--style", "ndjson",
            "--predicate", #"subsystem == "com.example.sync" AND messageType == error"#,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""eventMessage":"cart has 3 items (alice) 7 ff""#) == true)
        #expect(lines.first?.contains(#""process":"syncd""#) == true)
    }
}
