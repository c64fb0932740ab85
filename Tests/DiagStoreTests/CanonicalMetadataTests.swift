import DiagModel
import Testing

@testable import DiagStore

/// A metadata text passes as canonical only when decoding and writing it again gives it back.
@Suite struct CanonicalMetadataTests {
    private func check(_ text: String) throws -> Bool {
        let bytes = Array(text.utf8)
        let canonical = bytes.withUnsafeBufferPointer { CanonicalMetadata.isCanonical($0) }
        if canonical {
            let decoded = try bytes.withUnsafeBufferPointer { try MetadataText.decode($0) }
            #expect(MetadataText.encode(decoded) == bytes, "\(text) passed but does not round-trip")
        }
        return canonical
    }

    @Test func theWritersOwnTextPasses() throws {
        let values: [[String: JSONValue]] = [
            [:], ["storeIdentifier": "E1F2"], ["activity": "sync", "score": 0.87], ["changes": 12, "storeIdentifier": "A"],
            ["errorCode": 1570, "n": -3, "zero": 0, "big": .int(Int64(999_999_999_999_999_999))],
            ["d": 3.0, "e": -0.5, "f": 1e14, "g": 0.1, "h": 123.456, "i": 1e15],
            ["flag": true, "other": false, "nothing": nil, "list": [1, "two", 3.5, false, nil, [], [:]]],
            ["nested": ["a": ["b": ["c": 1]]], "Z": 1, "a": 2, "_": 3, "A b": 4],
        ]
        for value in values {
            let text = String(decoding: MetadataText.encode(value), as: UTF8.self)
            #expect(try check(text), "\(text)")
        }
    }

    @Test func whatItCannotVouchForFails() throws {
        for text in [
            #"{"b":1,"a":2}"#, #"{"a":1,"a":2}"#, #"{ "a":1}"#, #"{"a": 1}"#, #"{"a":"\n"}"#, #"{"a":"\u0041"}"#, #"{"a":"\/"}"#,
            #"{"a":"é"}"#, #"{"é":1}"#, #"{"a":1e2}"#, #"{"a":1.50}"#, #"{"a":-0}"#, #"{"a":-0.0}"#, #"{"a":01}"#,
            #"{"a":1234567890123456789}"#, #"{"a":1e400}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":tru}"#, #"{"a":1"#, #"{"a":1}x"#,
            #"[1]"#, #""a""#, "", "{", #"{"a":[[[[[[[[[[1]]]]]]]]]]}"#, #"{"a":1,}"#, #"{"a":"x"#, "{\"a\":\"\u{1}\"}",
            #"{"a":1e15}"#, #"{"a":100000000000000000000.0}"#, #"{"a":2.5e-07}"#,
        ] {
            #expect(try !check(text), "\(text) should fail")
        }
    }
}
