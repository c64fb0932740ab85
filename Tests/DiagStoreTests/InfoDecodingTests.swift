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
}
