import DiagModel

/// The records both sides of the benchmark write: the sync system's four components, with the
/// fields a real client sends (levels, subsystems, activities, some metadata).
enum BenchRecords {
    static let components: [(subsystem: String, categories: [String])] = [
        ("com.example.synccore", ["store", "merge", "export"]),
        ("com.example.scheduler", ["activity", "policy"]),
        ("com.example.transport", ["http", "retry", "auth"]),
        ("com.example.notifier", ["push", "token"]),
    ]

    static func make(count: Int, seed: Int) -> [LogRecord] {
        var generator = SplitMix(seed: UInt64(seed))
        let start: Int64 = 1_795_000_000_000_000_000
        return (0..<count).map { index in
            let component = components[Int(generator.next() % UInt64(components.count))]
            let category = component.categories[Int(generator.next() % UInt64(component.categories.count))]
            let roll = generator.next() % 100
            let level: MessageType = roll < 70 ? .default : roll < 90 ? .info : roll < 98 ? .error : .fault
            let zone = generator.next() % 1000
            var record = LogRecord(
                timestamp: start + Int64(index) * 1_000, messageType: level, sender: component.subsystem.split(separator: ".").last.map(String.init),
                subsystem: component.subsystem, category: category, threadID: Int64(1000 + generator.next() % 8),
                activityIdentifier: Int64(generator.next() % 50_000),
                eventMessage: "processed batch \(index) for zone com.example.zone\(zone) in \(generator.next() % 900 + 10) ms",
                formatString: "processed batch %{public}@ for zone %{public}@ in %{public}@ ms")
            if index % 4 == 0 { record.metadata = ["zone": .int(Int64(zone)), "attempt": .int(Int64(index % 3))] }
            return record
        }
    }
}

/// A small deterministic generator, so every run writes the same records.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
