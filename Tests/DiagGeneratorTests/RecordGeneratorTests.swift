import DiagGenerator
import DiagModel
import Testing

@Suite struct RecordGeneratorTests {
    private static let sample = Array(RecordGenerator(GeneratorOptions(count: 50_000, seed: 7)))

    @Test func sameSeedSameRecords() {
        let again = Array(RecordGenerator(GeneratorOptions(count: 50_000, seed: 7)))
        #expect(again == Self.sample)
        let other = Array(RecordGenerator(GeneratorOptions(count: 1000, seed: 8)))
        #expect(other != Array(Self.sample.prefix(1000)))
    }

    @Test func pinnedFirstRecordOfSeedOne() throws {
        // Pins the sequence itself: a change to the generator that alters seed 1 shows up here.
        let records = Array(RecordGenerator(GeneratorOptions(count: 3, seed: 1)))
        #expect(records.map(\.timestamp) == [1_795_945_200_000_000_000, 1_795_945_200_000_292_055, 1_795_945_200_000_383_875])
        #expect(records.map { "\($0.process!)[\($0.processID!)] \($0.messageType.name): \($0.eventMessage)" } == [
            "scheduler[24484] Debug: Queue has 12 pending activities; next evaluation in 36.0 s",
            "notifier[5595] Info: Received push for topic com.example.SyncDemo (priority 5, 1037 bytes)",
            "notifier[5595] Debug: Delivering push to sync-core (token 18066CF9-101D…)",
        ])
    }

    @Test func countAndTimeline() {
        #expect(Self.sample.count == 50_000)
        #expect(Array(RecordGenerator(GeneratorOptions(count: 0))).isEmpty)
        #expect(Self.sample.first?.timestamp == GeneratorOptions.defaultStart)
        #expect(zip(Self.sample, Self.sample.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        // 1000 records per second on average: 50,000 records span about 50 s.
        let span = Double(Self.sample.last!.timestamp - Self.sample.first!.timestamp) / 1e9
        #expect(span > 45 && span < 55, "span \(span) s")
        let start = Timestamp.parse("2026-01-02 03:04:05Z")!
        let slow = Array(RecordGenerator(GeneratorOptions(count: 2000, seed: 3, start: start, ratePerSecond: 10)))
        #expect(slow.first?.timestamp == start)
        let slowSpan = Double(slow.last!.timestamp - start) / 1e9
        #expect(slowSpan > 170 && slowSpan < 230, "span \(slowSpan) s")
    }

    @Test func fourComponentsWithTheirSendersAndSubsystems() {
        let processes = Set(Self.sample.compactMap(\.process))
        #expect(processes == ["sync-core", "scheduler", "transport", "notifier"])
        let coreSenders = Set(Self.sample.filter { $0.process == "sync-core" }.compactMap(\.sender))
        #expect(coreSenders == ["CoreData", "CloudKit"])
        #expect(Self.sample.filter { $0.process == "sync-core" }.allSatisfy { $0.subsystem == "com.example.sync" })
        #expect(Self.sample.allSatisfy { $0.processID != nil && $0.threadID != nil && $0.category != nil && $0.processImagePath != nil })
        let pids = Dictionary(grouping: Self.sample, by: \.process).mapValues { Set($0.compactMap(\.processID)) }
        #expect(pids.values.allSatisfy { $0.count == 1 })
    }

    @Test func everyLevelWithFewErrorsAndFaults() {
        let levels = Dictionary(grouping: Self.sample, by: \.messageType).mapValues(\.count)
        #expect(Set(levels.keys) == Set(MessageType.allCases))
        let errors = Double(levels[.error] ?? 0) / Double(Self.sample.count)
        let faults = Double(levels[.fault] ?? 0) / Double(Self.sample.count)
        #expect(errors > 0.002 && errors < 0.05, "errors \(errors)")
        #expect(faults > 0 && faults < 0.002, "faults \(faults)")
        #expect((levels[.debug] ?? 0) > Self.sample.count / 10 && (levels[.info] ?? 0) > Self.sample.count / 10)
    }

    @Test func activitiesCrossProcesses() {
        let byActivity = Dictionary(grouping: Self.sample.filter { $0.activityIdentifier != nil }, by: { $0.activityIdentifier! })
        let crossing = byActivity.values.filter { Set($0.compactMap(\.process)).count >= 3 }
        #expect(crossing.count > 1000)
        let exports = Self.sample.filter { $0.eventType == .activityCreateEvent }
        #expect(!exports.isEmpty && exports.allSatisfy { $0.process == "scheduler" && $0.parentActivityIdentifier != nil })
        let exportActivity = exports[0].activityIdentifier!
        let processes = Set(byActivity[exportActivity]!.compactMap(\.process))
        #expect(processes == ["scheduler", "sync-core", "transport"])
    }

    @Test func messagesCarryStoresContainerAndUnicode() throws {
        let uuid = try Regex(#"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}"#)
        let stores = Set(Self.sample.compactMap { record -> String? in
            guard record.eventMessage.contains("from store ") else { return nil }
            return record.eventMessage.firstMatch(of: uuid).map { String(record.eventMessage[$0.range]) }
        })
        #expect(stores.count == 3)
        #expect(Self.sample.contains { $0.metadata?["storeIdentifier"].flatMap(\.stringValue).map(stores.contains) == true })
        #expect(Self.sample.contains { $0.eventMessage.contains("com.example.sync.activity.export.") && $0.eventMessage.contains("score 0.") })
        #expect(Self.sample.contains { $0.eventMessage.contains("container iCloud.com.example.SyncDemo") })
        #expect(Self.sample.contains { $0.eventMessage.contains("topic com.example.SyncDemo") })
        #expect(Self.sample.contains { $0.eventMessage.contains("Café") || $0.eventMessage.contains("Straße") })
        #expect(Self.sample.contains { $0.eventMessage.unicodeScalars.contains { $0.properties.isEmojiPresentation } })
    }

    @Test func messageLengthsLikeRealLogs() {
        let lengths = Self.sample.filter { $0.eventType == .logEvent }.map(\.eventMessage.utf8.count).sorted()
        let median = lengths[lengths.count / 2]
        #expect(median >= 40 && median <= 150, "median \(median)")
        let inRange = lengths.filter { (40...300).contains($0) }.count
        #expect(Double(inRange) / Double(lengths.count) > 0.97)
        #expect(lengths.last! > 600)
    }
}
