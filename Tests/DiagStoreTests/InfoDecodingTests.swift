import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// `Info.json`'s fast reader gives what `JSONDecoder` gives, and leaves every other shape to it.
@Suite struct InfoDecodingTests {
    private func fast(_ text: String) -> StoreInfo? {
        Array(text.utf8).withUnsafeBufferPointer { StoreInfo.fastDecode($0) }
    }

    private func decoded(_ text: String) -> StoreInfo? {
        try? JSONDecoder().decode(StoreInfo.self, from: Data(text.utf8))
    }

    @Test func aSavedFileReadsAsJSONDecoderReadsIt() throws {
        var info = StoreInfo(identifier: "A1B2", chunks: [
            ChunkInfo(file: "0000000000000001.chunk.sqlite", sequence: 1, sealed: true, recordCount: 10,
                      oldestTimestamp: -5, newestTimestamp: .max, byteCount: 4096, searchIndex: true, timeOrdered: true),
            ChunkInfo(file: "0000000000000002.chunk.sqlite", sequence: 2, sealed: true, timeOrdered: false,
                      timeSamples: [-3, 0, .max]),
            ChunkInfo(file: "0000000000000003.chunk.sqlite", sequence: 3),
        ])
        info.recomputeTotals()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let text = String(decoding: try encoder.encode(info), as: UTF8.self)
        #expect(fast(text) == info)
        #expect(fast(text) == decoded(text))
        // The open chunk's unknown order is left out of the file, as older versions wrote it.
        #expect(text.components(separatedBy: "timeOrdered").count == 3)
        #expect(text.components(separatedBy: "timeSamples").count == 2, "only where there are samples")
    }

    @Test(arguments: [
        #"{"formatVersion": 1, "identifier": "old"}"#,
        #"{"formatVersion": 2, "identifier": "x", "chunks": null, "recordCount": null, "unknown": [1, {"a": 2}]}"#,
        #"{"identifier": "x", "formatVersion": 3, "chunks": [{"file": "f", "sequence": 7, "sealed": false, "recordCount": 0, "byteCount": 0, "searchIndex": false, "oldestTimestamp": null}]}"#,
        #"{"identifier": "x", "formatVersion": 3, "chunks": [{"file": "f", "sequence": 7, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeOrdered": null}]}"#,
        #"{"identifier": "x", "formatVersion": 3, "chunks": [{"file": "f", "sequence": 7, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeOrdered": false}]}"#,
        #"{"identifier": "x", "formatVersion": 3, "chunks": [{"file": "f", "sequence": 7, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeSamples": null}]}"#,
        #"{"identifier": "x", "formatVersion": 3, "chunks": [{"file": "f", "sequence": 7, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeSamples": []}]}"#,
        #"{"identifier": "x", "formatVersion": 3, "chunks": [{"file": "f", "sequence": 7, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeSamples": [5, -9223372036854775808, 3]}]}"#,
    ])
    func acceptedShapesMatch(text: String) throws {
        let info = try #require(fast(text))
        #expect(info == decoded(text))
    }

    /// The member-by-member reader (`JSONPullParser`) takes members in any order and any
    /// whitespace, skips unknown ones whatever they hold (repeated too), and unescapes strings.
    @Test(arguments: [
        #"{"chunks":[{"timeBuckets":[1,2,-1,-1,-1,-1],"searchIndex":true,"byteCount":9,"recordCount":3,"sealed":true,"sequence":4,"file":"0000000000000004.chunk.sqlite","newestTimestamp":20,"oldestTimestamp":10,"timeOrdered":true,"timeSamples":[10,15,20]}],"identifier":"i","formatVersion":3,"recordCount":3}"#,
        "{\t\"formatVersion\" :\n3 ,\r\n \"identifier\":\"x\",\"chunks\" : [ ] }\n",
        #"{"formatVersion": 3, "identifier": "\u00e9\"\\", "chunks": [{"file": "a\"b\u00e9\ud83d\ude00", "sequence": 7, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "extra": {"deep": [[[{"x": [1.5e3, true, null, "s"]}]]]}}]}"#,
        #"{"formatVersion": 3, "identifier": "x", "oldestTimestamp": -9223372036854775808, "newestTimestamp": 9223372036854775807, "recordCount": 0}"#,
        #"{"formatVersion": 3, "identifier": "x", "unknown": 1, "unknown": {"a": [2]}, "chunks": [{"file": "f", "sequence": 7, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "u": 1, "u": 2}]}"#,
    ])
    func keyOrderWhitespaceAndRepeatsReadAsJSONDecoderReadsThem(text: String) throws {
        let info = try #require(fast(text))
        #expect(info == decoded(text))
    }

    @Test(arguments: [
        #"{"formatVersion": 2, "identifier": "x"} x"#,
        #"{"formatVersion": 2, "identifier": "x"}}"#,
        #"{"formatVersion": 2, "identifier": "x",}"#,
        #"{"formatVersion": 2, "identifier": "x", "chunks": [{"file": "f", "sequence": 1, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false},]}"#,
        #"{"formatVersion": 2, "identifier": "x", "chunks": [{"file": "f", "sequence": 1, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false,}]}"#,
        #"{"formatVersion": 2, "identifier": "x", "chunks": [{"file": "f", "sequence": 1, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeSamples": [1,]}]}"#,
        #"{"formatVersion": 2, "identifier": "x", "chunks": [{"file": "f", "sequence": 1, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeSamples": [1 2]}]}"#,
        #"{"formatVersion": 2, "identifier": "x", "unknown": [1, 2}"#,
        #"{"formatVersion": 2, "identifier": "x", "unknown": 01}"#,
        #"{"formatVersion": 2, "identifier": "x", "recordCount": 9223372036854775808}"#,
        #"{"formatVersion": 2, "identifier": "bad \x escape"}"#,
        #"{"formatVersion": 2, "identifier": "x", "chunks": [{"file": "f", "sequence": 1, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false}"#,
        #"{"formatVersion": 2, "identifier": "x", "unknown": "#
            + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}",
        "\u{FEFF}" + #"{"formatVersion": 2, "identifier": "x"}"#,
    ])
    func malformedTextIsLeftToJSONDecoder(text: String) {
        #expect(fast(text) == nil)
    }

    /// A known key given twice: `JSONDecoder` takes the first value (the tree the fast reader
    /// built took the last), so the fast reader leaves such a file to it, and both readers
    /// always agree.
    @Test(arguments: [
        #"{"formatVersion": 1, "formatVersion": 3, "identifier": "first", "identifier": "last"}"#,
        #"{"formatVersion": 3, "identifier": "x", "chunks": [{"file": "f", "sequence": 7, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeOrdered": true, "timeOrdered": null, "oldestTimestamp": 4, "oldestTimestamp": null}]}"#,
        #"{"formatVersion": 3, "identifier": "x", "chunks": [{"file": "lost"}], "chunks": [{"file": "f", "sequence": 7, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false}]}"#,
    ])
    func repeatedKeysAreLeftToJSONDecoder(text: String) throws {
        #expect(fast(text) == nil)
        let folder = try TemporaryDirectory()
        let url = folder.file("Info.json")
        try Data(text.utf8).write(to: url)
        if let expected = decoded(text) {
            #expect(try StoreInfo.load(from: url) == expected)
        } else {
            #expect(throws: StoreError.self) { try StoreInfo.load(from: url) }
        }
    }

    /// A stranger's file with half a million unknown keys in one object (and one chunk entry) is
    /// read in one pass: the reader keeps no list of the keys it skipped.
    @Test func manyUnknownKeysAreSkippedInOnePass() throws {
        var text = #"{"formatVersion": 3, "identifier": "x", "chunks": [{"file": "f", "sequence": 1, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false"#
        for index in 0..<250_000 { text += ",\"k\(index)\":0" }
        text += "}]"
        for index in 0..<250_000 { text += ",\"k\(index)\":0" }
        text += "}"
        let info = try #require(fast(text))
        #expect(info.chunks.count == 1)
        #expect(info == decoded(text))
    }

    /// Many stores' worth of entries, written as `save` writes them and compactly: the fast
    /// reader gives `JSONDecoder`'s answer for each.
    @Test func generatedFilesReadAsJSONDecoderReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<40 {
            var chunks: [ChunkInfo] = []
            for sequence in 1...Int64.random(in: 1...60, using: &generator) {
                let oldest: Int64? = Bool.random(using: &generator) ? Int64.random(in: .min ... .max, using: &generator) : nil
                chunks.append(ChunkInfo(
                    file: String(format: "%016lld.chunk.sqlite", sequence), sequence: sequence, sealed: Bool.random(using: &generator),
                    recordCount: Int64.random(in: 0...1_000_000, using: &generator), oldestTimestamp: oldest,
                    newestTimestamp: oldest.map { $0 / 2 + 7 }, byteCount: Int64.random(in: 0 ... .max, using: &generator),
                    searchIndex: Bool.random(using: &generator), timeOrdered: [true, false, nil].randomElement(using: &generator)!,
                    timeSamples: Bool.random(using: &generator) ? (0..<65).map { _ in Int64.random(in: .min ... .max, using: &generator) } : nil,
                    timeBuckets: Bool.random(using: &generator) ? (0..<6).map { _ in Int64.random(in: -1...1 << 40, using: &generator) } : nil))
            }
            var info = StoreInfo(identifier: UUID().uuidString, chunks: chunks)
            info.recomputeTotals()
            let encoder = JSONEncoder()
            encoder.outputFormatting = round % 2 == 0 ? [.prettyPrinted, .sortedKeys] : []
            let text = String(decoding: try encoder.encode(info), as: UTF8.self)
            #expect(fast(text) == info)
            #expect(fast(text) == decoded(text))
        }
    }

    @Test(arguments: [
        "", "[]", "null", #"{"formatVersion": "2", "identifier": "x"}"#,
        #"{"formatVersion": 2}"#,
        #"{"formatVersion": 2.5, "identifier": "x"}"#,
        #"{"formatVersion": 2, "identifier": "x", "chunks": {}}"#,
        #"{"formatVersion": 2, "identifier": "x", "chunks": [{"file": "f"}]}"#,
        #"{"formatVersion": 2, "identifier": "x", "recordCount": true}"#,
        #"{"formatVersion": 2, "identifier": "x", "chunks": [{"file": "f", "sequence": 1, "sealed": 1, "recordCount": 0, "byteCount": 0, "searchIndex": false}]}"#,
        #"{"formatVersion": 2, "identifier": "x""#,
        #"{"formatVersion": 3, "identifier": "x", "chunks": [{"file": "f", "sequence": 1, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeOrdered": "yes"}]}"#,
        #"{"formatVersion": 3, "identifier": "x", "chunks": [{"file": "f", "sequence": 1, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeSamples": [1, "2"]}]}"#,
        #"{"formatVersion": 3, "identifier": "x", "chunks": [{"file": "f", "sequence": 1, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeSamples": [1, 2.5]}]}"#,
        #"{"formatVersion": 3, "identifier": "x", "chunks": [{"file": "f", "sequence": 1, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeSamples": 7}]}"#,
    ])
    func otherShapesAreLeftToJSONDecoder(text: String) {
        #expect(fast(text) == nil)
    }

    /// Time samples that are not a list of integers are refused, with where they are.
    @Test func wrongTimeSamplesAreRefusedByPlace() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Info.json")
        try Data(#"{"formatVersion": 3, "identifier": "x", "chunks": [{"file": "f", "sequence": 1, "sealed": true, "recordCount": 0, "byteCount": 0, "searchIndex": false, "timeSamples": [1, "2"]}]}"#.utf8).write(to: url)
        let error = try #require(throws: StoreError.self) { try StoreInfo.load(from: url) }
        #expect("\(error)".contains("chunks[0].timeSamples[1]"), "\(error)")
    }

    /// `Info.json` comes from anywhere a store or bundle does: what is not a regular file, or is
    /// over the bound, is refused by name before it is read (a FIFO would hold the open until
    /// something wrote to it; a sparse file one byte over the bound holds no data to read), and
    /// a missing one says it cannot be read and why. What is read is what was checked: the
    /// checks and the read go through one descriptor.
    @Test func infoThatIsNoFileOrTooLargeIsRefusedUnread() throws {
        let folder = try TemporaryDirectory()
        let fifo = folder.file("fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let fifoError = try #require(throws: StoreError.self) { try StoreInfo.load(from: fifo) }
        #expect("\(fifoError)".contains("Info.json is not a regular file"), "\(fifoError)")

        let directory = folder.file("directory")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let directoryError = try #require(throws: StoreError.self) { try StoreInfo.load(from: directory) }
        #expect("\(directoryError)".contains("Info.json is not a regular file"), "\(directoryError)")

        let large = folder.file("large")
        #expect(FileManager.default.createFile(atPath: large.path, contents: Data("{}".utf8)))
        #expect(truncate(large.path, off_t(StoreInfo.maximumFileSize + 1)) == 0)
        let largeError = try #require(throws: StoreError.self) { try StoreInfo.load(from: large) }
        #expect("\(largeError)".contains("over the bound of \(StoreInfo.maximumFileSize) bytes"), "\(largeError)")

        let missingError = try #require(throws: StoreError.self) { try StoreInfo.load(from: folder.file("missing")) }
        #expect("\(missingError)".contains("cannot read Info.json"), "\(missingError)")
        #expect("\(missingError)".contains("No such file or directory"), "\(missingError)")

        // At the bound exactly, the file is read (and refused as JSON, not for its size).
        let atBound = folder.file("at-bound")
        #expect(FileManager.default.createFile(atPath: atBound.path, contents: Data("{}".utf8)))
        #expect(truncate(atBound.path, off_t(StoreInfo.maximumFileSize)) == 0)
        let atBoundError = try #require(throws: StoreError.self) { try StoreInfo.load(from: atBound) }
        #expect(!"\(atBoundError)".contains("over the bound"), "\(atBoundError)")
    }
}
