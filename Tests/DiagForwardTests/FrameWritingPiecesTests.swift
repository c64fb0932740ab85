@testable import DiagForward
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

/// The pieces the row encoder writes frames with, checked against the plain byte-by-byte rules
/// at every length and position (the word-at-a-time reads have a head, whole words and a tail).
@Suite struct FrameWritingPiecesTests {
    @Test func byteScanFindsEverySpecialAndNonASCIIByteAtEveryPosition() {
        for length in 0...40 {
            for position in 0..<max(length, 1) {
                for planted: UInt8 in [0x22, 0x5C, 0x5D, 0x80, 0xC3, 0xFF, 0x5E, 0x5B, 0x21, 0x23, 0x00, 0x7F, 0x01] {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { bytes[position] = planted }
                    let scan = bytes.withUnsafeBufferPointer { ByteScan($0) }
                    #expect(scan.hasNonASCII == bytes.contains { $0 >= 0x80 }, "length \(length), \(planted) at \(position)")
                    #expect(scan.hasSDSpecial == bytes.contains { $0 == 0x22 || $0 == 0x5C || $0 == 0x5D }, "length \(length), \(planted) at \(position)")
                }
            }
        }
        // Bytes one below a special one (0x21, 0x5B) next to a zero byte: no borrow is taken for one.
        let near: [UInt8] = [0x00, 0x21, 0x00, 0x5B, 0x01, 0x5E, 0x23, 0x00, 0x21]
        #expect(near.withUnsafeBufferPointer { ByteScan($0) }.hasSDSpecial == false)
    }

    /// The validator says yes exactly when Swift's own decoding finds nothing to repair: every
    /// one- and two-byte sequence, every lead byte with each boundary of its second byte, and
    /// sequences cut short, overlong, past U+10FFFF or encoding surrogates.
    @Test func utf8ValidationAgreesWithSwiftsDecoding() {
        var cases: [[UInt8]] = []
        for first in 0...255 {
            cases.append([UInt8(first)])
            for second in 0...255 { cases.append([UInt8(first), UInt8(second)]) }
            for second: UInt8 in [0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0] {
                for third: UInt8 in [0x41, 0x80, 0xBF, 0xC0] {
                    cases.append([UInt8(first), second, third])
                    cases.append([UInt8(first), second, third, 0x80])
                    cases.append([UInt8(first), second, third, 0xBF, 0x41])
                    cases.append([UInt8(first), second, third, 0xC0])
                }
            }
        }
        cases += [Array("café ✓ 日本語 🚀 plain".utf8), [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80]]
        for bytes in cases {
            let valid = bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
            #expect(valid == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
    }

    @Test(arguments: [
        0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 65_535, 99_999_999, 100_000_000, 999_999_999_999_999_999,
        1_000_000_000_000_000_000, Int64.max, -1, -9, -10, -100, -1_000_000_007, Int64.min, Int64.min + 1,
    ] as [Int64])
    func digitsAreTheDecimalText(value: Int64) {
        var writer = ByteWriter(capacity: 1)
        writer.append(UInt8(ascii: "<"))
        writer.appendDigits(value)
        writer.append(UInt8(ascii: ">"))
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "<\(value)>")
    }

    @Test func escapingAddsABackslashBeforeEachSpecialByte() {
        for text in ["", "plain", "\"", "a]b\\c\"d", String(repeating: "]", count: 17), "12345678\"", "1234567\""] {
            var writer = ByteWriter(capacity: 1)
            var copy = text
            copy.withUTF8 { writer.appendEscaped($0) }
            let expected = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "]", with: "\\]")
            #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
        }
    }

    @Test func metadataCacheGivesEachTextItsOwnValueWhateverItsSlot() throws {
        var cache = MetadataValueCache()
        var made = 0
        let make: (UnsafeBufferPointer<UInt8>) throws -> [UInt8] = { text in
            made += 1
            return Array("v:".utf8) + Array(text)
        }
        // More texts than slots: the table is emptied when full and fills again; texts whose
        // hashes share a first slot take the next ones.
        let texts = (0..<5000).map { Array("{\"n\":\($0)}".utf8) } + [[], Array(repeating: UInt8(ascii: "x"), count: 2000)]
        for round in 0..<2 {
            for text in texts {
                let value = try text.withUnsafeBufferPointer { try cache.value(for: $0, make: make) }
                #expect(value == Array("v:".utf8) + text, "round \(round)")
            }
        }
        #expect(made > texts.count)
        // A text seen again at once is not made again.
        let before = made
        for _ in 0..<3 { _ = try texts[7].withUnsafeBufferPointer { try cache.value(for: $0, make: make) } }
        #expect(made == before + 1)
        // What `make` refuses is not kept: the next time it is asked again.
        struct Refused: Error {}
        let bad = Array("{bad".utf8)
        for _ in 0..<2 {
            #expect(throws: Refused.self) { try bad.withUnsafeBufferPointer { try cache.value(for: $0, make: { _ in throw Refused() }) } }
        }
    }
}

/// Metadata texts the store did not write itself (whitespace, keys out of order, escapes): the
/// frames hold what the record encoder writes for the decoded object, each row its own, however
/// many distinct texts come between repeats.
@Suite struct StoredMetadataFramesTests {
    @Test func framesOfHandWrittenMetadataAreTheRecordsFrames() throws {
        let directory = try TemporaryDirectory()
        let store = try LogStore.open(at: directory.url, create: true)
        let count = 3000
        try store.append((0..<count).map { LogRecord(timestamp: Int64($0), process: "p", eventMessage: "row \($0)", metadata: ["n": .int(Int64($0))]) })
        let chunk = try #require(store.info.chunks.last)
        let database = try Database(path: directory.url.appendingPathComponent("Persist").appendingPathComponent(chunk.file).path)
        let handWritten = [
            #"{ "b" : 1, "a" : [true, null] }"#, #"{"z":"q\"]\\","a":1.50}"#, #"{"k":"\u00e9\n","k2":{}}"#, #"{}"#, #"{"n":1e3}"#,
        ]
        for (index, text) in handWritten.enumerated() {
            try database.execute("UPDATE records SET metadata = '\(text.replacingOccurrences(of: "'", with: "''"))' WHERE id % \(handWritten.count) = \(index) AND id % 7 = 0")
        }
        let encoder = RFC5424Encoder(hostname: "h", utcOffset: 0)
        let asFrames = try StoreFollower(storeDirectory: directory.url).read(after: .beginning, limit: count, chunks: store.info.chunks, frames: encoder)
        let asRecords = try StoreFollower(storeDirectory: directory.url).read(after: .beginning, limit: count, chunks: store.info.chunks)
        #expect(asRecords.records.count == count)
        #expect(asFrames.count == count)
        var expected: [UInt8] = []
        for record in asRecords.records { encoder.appendFrame(for: record, to: &expected) }
        #expect(asFrames.frames?.bytes == expected)
        #expect(asRecords.records.contains { $0.metadata == ["a": .array([.bool(true), .null]), "b": .int(1)] })
    }
}
