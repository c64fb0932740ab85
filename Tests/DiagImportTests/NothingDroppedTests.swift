import DiagImport
import DiagModel
import Testing

/// Every non-blank line of a file ends up as a record or as an issue: mutated lines of each
/// format, read many times over, never vanish and never stop the reading.
@Suite struct NothingDroppedTests {
    private static let goodLines: [ImportFormat: [String]] = [
        .ndjson: [#"{"timestamp":"2026-11-29 09:40:01.5+0000","messageType":"Info","process":"transport","processID":7,"eventMessage":"Sent batch 2/3 to iCloud.com.example.SyncDemo"}"#],
        .journalJSON: [#"{"__REALTIME_TIMESTAMP":"1764409201000000","__CURSOR":"s=1","PRIORITY":"4","_PID":"42","_COMM":"transport","MESSAGE":"Throttled: retry after 30 s"}"#],
        .syslog: ["Nov 29 09:40:01 host transport[42]: Uploaded batch 3 of 7 (Café)"],
        .logcat: ["11-29 09:40:01.123  1702  2395 W Transport: retrying upload in 2 s"],
    ]

    @Test(arguments: [ImportFormat.ndjson, .journalJSON, .syslog, .logcat])
    func everyLineIsARecordOrAnIssue(format: ImportFormat) throws {
        var random: UInt64 = 0x5EED
        func next() -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(random >> 33)
        }
        let good = Array(Self.goodLines[format]![0].utf8)
        for _ in 0..<40 {
            var lines: [[UInt8]] = [good]
            for _ in 0..<30 {
                var line = good
                for _ in 0..<(next() % 4) {
                    let position = next() % line.count
                    switch next() % 3 {
                    case 0: line[position] = UInt8(truncatingIfNeeded: next())
                    case 1: line.remove(at: position)
                    default: line.insert(UInt8(truncatingIfNeeded: next()), at: position)
                    }
                }
                // Newlines would make two lines; blanks and indented lines (syslog continuations) are not lines of their own.
                line = line.map { $0 == 0x0A ? 0x21 : $0 }
                if line.isEmpty || line[0] == 0x20 || line[0] == 0x09 || line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { line = [0x21] + line }
                if line.last == 0x0D { line.append(0x21) }
                lines.append(line)
            }
            let bytes: [UInt8] = lines.flatMap { line -> [UInt8] in line + [0x0A] }
            let imported = try importBytes(bytes, format: format)
            let refused = Set(imported.issues.filter { issue in !issue.reason.hasSuffix("the record is kept") }.map { issue in issue.line })
            #expect(imported.records.count + refused.count == lines.count, "\(imported.issues.map { issue in issue.description })")
            #expect(imported.records.count >= 1)
        }
    }
}
