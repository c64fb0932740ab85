import DiagModel
import Testing

@Suite struct JSONReaderTests {
    @Test func readsEveryKindOfValue() throws {
        let value = try JSONReader.parse(#" {"a": [1, -2, 3.5, -0.25e2, true, false, null], "b": {"c": "d"}, "e": ""} "#)
        #expect(value == ["a": [1, -2, 3.5, -25.0, true, false, nil], "b": ["c": "d"], "e": ""])
    }

    @Test func integersThatFitInt64AreInts() throws {
        #expect(try JSONReader.parse("9223372036854775807") == .int(Int64.max))
        #expect(try JSONReader.parse("-9223372036854775808") == .int(Int64.min))
        #expect(try JSONReader.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONReader.parse("-0") == .int(0))
        #expect(try JSONReader.parse("1.0") == .double(1))
        #expect(try JSONReader.parse("1E3") == .double(1000))
        #expect(try JSONReader.parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONReader.parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\u20AC\ud83c\udf89\u0000""#)
        #expect(value == .string("a\"b\\c/d\u{8}\u{c}\n\r\té€🎉\u{0}"))
    }

    @Test func keepsUnicodeAsIs() throws {
        #expect(try JSONReader.parse(#""Café Straße 🎉 日本""#) == .string("Café Straße 🎉 日本"))
    }

    @Test func lastDuplicateKeyWins() throws {
        #expect(try JSONReader.parseObject(#"{"a":1,"a":2}"#) == ["a": 2])
    }

    @Test func roundTripsWhatJSONWriterWrites() throws {
        let original: JSONValue = ["s": "x\u{1}\"\\é🎉", "n": -42, "d": 0.5, "l": [nil, true, ["k": []]]]
        var writer = JSONWriter()
        writer.append(original)
        #expect(try JSONReader.parse(writer.bytes) == original)
    }

    @Test(arguments: [
        ("[1,]", "expected", 3),
        ("{\"a\":1,}", "expected a string key", 7),
        ("01", "leading zero", 0),
        ("-01", "leading zero", 0),
        ("1.", "expected a digit after '.'", 2),
        ("1e", "expected a digit after the exponent", 2),
        ("-", "expected a digit", 1),
        (".5", "where a value was expected", 0),
        ("NaN", "where a value was expected", 0),
        ("tru", "invalid literal (expected true)", 0),
        ("{\"a\" 1}", "expected ':'", 5),
        ("[1 2]", "expected ',' or ']'", 3),
        ("{} x", "unexpected 'x' after the JSON value", 3),
        ("\"abc", "unterminated string", 0),
        ("{\"a\":", "unexpected end of input", 5),
        ("", "unexpected end of input", 0),
        ("   ", "unexpected end of input", 3),
        ("\"\\x\"", "invalid escape '\\x'", 1),
        ("\"\\u12G4\"", "not a hex digit", 1),
        ("\"\\ud800\"", "lone high surrogate \\uD800", 1),
        ("\"\\udc00\"", "lone low surrogate \\uDC00", 1),
        ("\"\\ud800\\u0041\"", "not a low surrogate", 1),
        ("\"a\tb\"", "control character byte 0x09 in a string", 2),
        ("1e400", "out of the range", 0),
    ])
    func refusesWithReasonAndOffset(text: String, reason: String, offset: Int) {
        #expect {
            _ = try JSONReader.parse(text)
        } throws: { error in
            guard let error = error as? JSONReaderError else { return false }
            return error.reason.contains(reason) && error.offset == offset
        }
    }

    @Test(arguments: [
        ([0x22, 0xFF, 0x22], 1),  // not a lead byte
        ([0x22, 0xC3, 0x22], 1),  // truncated sequence
        ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong '/'
        ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),  // overlong three-byte
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // UTF-16 surrogate encoded in UTF-8
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
        ([0x22, 0xE2, 0x82], 1),  // cut by the end of input
        ([0x22, 0x61, 0x5C, 0x6E, 0xFE, 0x22], 4),  // after an escape, on the slow path
        ([0xEF, 0xBB, 0xBF, 0x31], 0),  // a byte-order mark is not JSON
    ] as [([UInt8], Int)])
    func refusesInvalidUTF8AtItsOffset(bytes: [UInt8], offset: Int) {
        #expect {
            _ = try JSONReader.parse(bytes)
        } throws: { error in
            (error as? JSONReaderError)?.offset == offset
        }
    }

    @Test func reportsLineAndColumn() {
        #expect {
            _ = try JSONReader.parse("{\n  \"a\": 1,\n  \"b\": tru\n}")
        } throws: { error in
            guard let error = error as? JSONReaderError else { return false }
            return error.line == 3 && error.column == 8
                && error.description == "invalid JSON: invalid literal (expected true) at line 3, column 8 (byte offset 19)"
        }
    }

    @Test func limitsNesting() throws {
        let allowed = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try JSONReader.parse(allowed) != .null)
        let hostile = String(repeating: "[", count: 100_000)
        #expect {
            _ = try JSONReader.parse(hostile)
        } throws: { error in
            guard let error = error as? JSONReaderError else { return false }
            return error.reason.contains("nested deeper than 64 levels") && error.offset == 64
        }
        #expect(throws: JSONReaderError.self) { _ = try JSONReader.parse(allowed, maxDepth: 10) }
    }

    @Test func parseObjectRefusesOtherValues() {
        #expect {
            _ = try JSONReader.parseObject("[1]")
        } throws: { error in
            (error as? JSONReaderError)?.reason == "expected a JSON object ('{') but found '['"
        }
    }

    @Test func survivesTruncationAtEveryByte() {
        let text = Array(#"{"timestamp":"2026-07-26 18:11:22.348728+1200","eventMessage":"Café \u00e9 🎉","n":[1,2.5e3,null]}"#.utf8)
        for end in 0..<text.count {
            #expect(throws: JSONReaderError.self) { _ = try JSONReader.parse(Array(text[0..<end])) }
        }
        #expect(throws: Never.self) { _ = try JSONReader.parse(text) }
    }

    @Test func neverTrapsOnRandomBytes() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let alphabet = Array(#"{}[]",:\u0aeE+-.019tfnrlsx "#.utf8) + [0xC3, 0xA9, 0xFF, 0xED, 0x00]
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for _ in 0..<Int(state >> 59) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            _ = try? JSONReader.parse(bytes)
        }
    }
}
