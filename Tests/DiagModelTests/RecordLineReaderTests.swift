import DiagModel
import Testing

/// diagd reads record lines with `RecordLineReader` first and with `LogRecord(jsonBytes:)` when
/// it declines: whenever it takes a line, its row must be the one the general reader's record
/// packs to (with diagd's receipt time and trusted fields), byte for byte.
@Suite struct RecordLineReaderTests {
    static let receiptTime: Int64 = 1_800_000_000_000_000_000

    /// Lines of the shape our clients write: the reader must take each.
    static let plainLines = [
        #"{"timestamp":1785046282348728000,"messageType":"Error","sender":"transport","subsystem":"com.example.transport","category":"http","threadID":1003,"activityIdentifier":4711,"eventMessage":"processed batch 7 for zone com.example.zone12 in 35 ms","formatString":"processed batch %{public}@","metadata":{"attempt":1,"zone":12}}"#,
        #"{"timestamp":1,"messageType":"Default","eventMessage":"plain"}"#,
        #"{"eventMessage":"no timestamp: the receipt time stands in"}"#,
        #"{"timestamp":5,"timestampNanoseconds":7,"eventMessage":"the exact timestamp wins"}"#,
        #"{ "timestamp" : 2 , "eventMessage" : "spaces" , "subsystem" : null }"#,
        #"{"timestamp":3,"messageType":"Fault","eventType":"activityCreateEvent","eventMessage":"Café 😀 ÉCOLE","category":"ünïcode"}"#,
        #"{"timestamp":4,"eventMessage":"escapes \"quoted\" \\ tab\t line\n \u00e9 \ud83d\ude00 \u0000","sender":"a\/b"}"#,
        #"{"timestamp":-9,"eventMessage":"","sender":"","metadata":{}}"#,
        #"{"timestamp":6,"eventMessage":"nested","metadata":{"b":[1,"two",3.5,false,null],"a":{"deep":{"er":-1.5e-7}},"é":"\u0001"}}"#,
        #"{"timestamp":8,"eventMessage":"claims","process":"liar","processID":1,"userID":0,"processImagePath":"/bin/liar","receiptTime":12}"#,
        #"{"timestamp":9,"eventMessage":"every other field","senderImagePath":"/lib/x.so","parentActivityIdentifier":-3,"traceID":9223372036854775807,"signpostID":-9223372036854775808,"signpostName":"fetch","signpostType":"begin","signpostScope":"thread","eventType":"signpostEvent"}"#,
        #"{"timestamp":10,"eventMessage":"unknown keys are skipped","extra":"x","more":{"a":[1,2]},"sync":1}"#,
    ]

    /// Lines the reader leaves to the general reader (which takes some and refuses others).
    static let otherLines = [
        #"{"timestamp":"2026-07-26T18:11:22.348728Z","eventMessage":"formatted timestamp"}"#,
        #"{"timestamp":1.5e3,"eventMessage":"a double timestamp"}"#,
        #"{"timestamp":1,"messageType":"error","eventMessage":"a lower-case level"}"#,
        #"{"timestamp":1,"messageType":16,"eventMessage":"a level code"}"#,
        #"{"timestamp":1,"message":"an alias"}"#,
        #"{"timestamp":1,"eventMessage":"twice","eventMessage":"repeated"}"#,
        #"{"timestamp":1,"eventMessage":"a number where text belongs","sender":5}"#,
        #"{"timestamp":1,"eventMessage":"text where a number belongs","threadID":"5"}"#,
        #"{"timestamp":1,"eventMessage":"an integral double","threadID":5.0}"#,
        #"{"timestamp":1,"eventMessage":"metadata not an object","metadata":[1]}"#,
        #"{"timestamp":1,"eventMessage":"bad escape \x"}"#,
        #"{"timestamp":1,"eventMessage":"unterminated"#,
        #"{"timestamp":1,"eventMessage":"trailing"} x"#,
        #"{"timestamp":1,"eventMessage":"overflow","threadID":9223372036854775808}"#,
        #"{"timestamp":1}"#,
        #"{"sync":1}"#,
        #"{}"#,
        #"[1]"#,
        "",
        "   ",
        #"{"tim\u0065stamp":1,"eventMessage":"an escaped key"}"#,
    ]

    @Test(arguments: plainLines)
    func takesPlainLinesAsTheGeneralReaderDoes(_ line: String) throws {
        let row = try #require(fastRow(line), "the reader declined a plain line")
        #expect(row == generalRow(line))
    }

    /// A live stream gets the row read back as a record: the general reader's record.
    @Test(arguments: plainLines)
    func theLastRowReadsBackAsTheGeneralReadersRecord(_ line: String) throws {
        var packed = PackedRecords([LogRecord(timestamp: 1, eventMessage: "a row before")])
        var reader = RecordLineReader()
        let bytes = Array(line.utf8)
        let taken = bytes.withUnsafeBufferPointer { buffer in
            guard reader.read(buffer) else { return false }
            reader.appendRow(
                from: buffer, to: &packed, receiptTime: Self.receiptTime,
                process: "client", processID: 4242, processImagePath: "/usr/bin/client", userID: 1000)
            return true
        }
        try #require(taken)
        #expect(try packed.lastRecord() == generalRecord(bytes))
        var joined = PackedRecords([LogRecord(timestamp: 2, eventMessage: "another")])
        joined.append(contentsOf: packed)
        #expect(try joined.lastRecord() == generalRecord(bytes))
        #expect(try joined.records().count == 3)
    }

    /// A connection's batch: rows packed one after another (each sized before it is written),
    /// from a peer whose process the kernel named and from one it did not, and one longer than
    /// the zeros the buffer grows by at a time: the general packing of the same records, byte
    /// for byte.
    @Test func rowsPackedOneAfterAnotherAreTheGeneralPacking() throws {
        let long = #"{"timestamp":11,"eventMessage":"\#(String(repeating: "long é ", count: 1_000))","sender":"s"}"#
        var packed = PackedRecords()
        var expected: [LogRecord] = []
        var reader = RecordLineReader()
        for (index, line) in (Self.plainLines + [long]).enumerated() {
            let named = index % 2 == 0
            let bytes = Array(line.utf8)
            let taken = bytes.withUnsafeBufferPointer { buffer in
                guard reader.read(buffer) else { return false }
                reader.appendRow(
                    from: buffer, to: &packed, receiptTime: Self.receiptTime,
                    process: named ? "client" : nil, processID: 4242, processImagePath: named ? "/usr/bin/client" : nil, userID: 1000)
                return true
            }
            try #require(taken, "the reader declined \(line)")
            var record = try #require(generalRecord(bytes))
            if !named { record.process = nil; record.processImagePath = nil }
            expected.append(record)
        }
        #expect(packed.bytes == PackedRecords(expected).bytes)
        #expect(packed.count == expected.count)
        #expect(try packed.records() == expected)
        #expect(try packed.lastRecord() == expected.last)
    }

    @Test(arguments: otherLines)
    func leavesOtherLinesToTheGeneralReader(_ line: String) throws {
        #expect(fastRow(line) == nil)
    }

    @Test func leavesBadUTF8ToTheGeneralReader() {
        for bad: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82]] {
            let line = Array(#"{"timestamp":1,"eventMessage":"bad "#.utf8) + bad + Array(#" here"}"#.utf8)
            #expect(fastRow(line) == nil)
            #expect(generalRow(line) == nil)
        }
    }

    /// Lines made by cutting and changing the plain ones: whatever the reader takes, it takes as
    /// the general reader does; what it declines, the general reader judges.
    @Test func agreesWithTheGeneralReaderOnDamagedLines() throws {
        var generator = SeededGenerator(state: 20261202)
        var taken = 0
        for line in Self.plainLines {
            let bytes = Array(line.utf8)
            for _ in 0..<300 {
                var damaged = bytes
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: damaged.removeSubrange(Int.random(in: 0..<damaged.count, using: &generator)...)
                case 1: damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                default: damaged.insert(Array(#"",:{}[]\n0-"#.utf8).randomElement(using: &generator)!, at: Int.random(in: 0...damaged.count, using: &generator))
                }
                if let row = fastRow(damaged) {
                    taken += 1
                    #expect(row == generalRow(damaged), "\(String(decoding: damaged, as: UTF8.self))")
                }
            }
        }
        #expect(taken > 0)
    }

    @Test func levelAndOriginAreReadForTheLevelSettings() throws {
        var reader = RecordLineReader()
        let line = Array(#"{"messageType":"Debug","subsystem":"com.example.s\u0074","category":"cat","eventMessage":"m"}"#.utf8)
        try line.withUnsafeBufferPointer { bytes in
            let taken = reader.read(bytes)
            try #require(taken)
            #expect(reader.messageType == .debug)
            #expect(reader.subsystem(in: bytes) == "com.example.st")
            #expect(reader.category(in: bytes) == "cat")
        }
    }

    private func fastRow(_ line: String) -> [UInt8]? { fastRow(Array(line.utf8)) }

    private func generalRow(_ line: String) -> [UInt8]? { generalRow(Array(line.utf8)) }

    private func fastRow(_ bytes: [UInt8]) -> [UInt8]? {
        var reader = RecordLineReader()
        var packed = PackedRecords()
        let taken = bytes.withUnsafeBufferPointer { buffer in
            guard reader.read(buffer) else { return false }
            reader.appendRow(
                from: buffer, to: &packed, receiptTime: Self.receiptTime,
                process: "client", processID: 4242, processImagePath: "/usr/bin/client", userID: 1000)
            return true
        }
        return taken ? packed.bytes : nil
    }

    private func generalRow(_ bytes: [UInt8]) -> [UInt8]? {
        generalRecord(bytes).map { PackedRecords([$0]).bytes }
    }

    private func generalRecord(_ bytes: [UInt8]) -> LogRecord? {
        guard var record = try? LogRecord(jsonBytes: bytes, defaultTimestamp: Self.receiptTime) else { return nil }
        record.receiptTime = Self.receiptTime
        record.process = "client"
        record.processID = 4242
        record.processImagePath = "/usr/bin/client"
        record.userID = 1000
        return record
    }
}

/// The same damaged lines on every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
