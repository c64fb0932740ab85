import Testing
@testable import DiagModel

/// `JSONPullParser` walks the same texts `JSONReader` reads to the same values, and refuses the
/// same malformed ones.
@Suite struct JSONPullParserTests {
    private struct NoValue: Error {}

    /// Reads any value through the pull API (integers only among numbers).
    private func walk(_ parser: inout JSONPullParser) throws -> JSONValue {
        if try parser.beginObject() {
            var members: [String: JSONValue] = [:]
            while let key = try parser.nextKey() { members[key] = try walk(&parser) }
            return .object(members)
        }
        if try parser.beginArray() {
            var elements: [JSONValue] = []
            while try parser.nextElement() { elements.append(try walk(&parser)) }
            return .array(elements)
        }
        if try parser.null() { return .null }
        if let flag = try parser.bool() { return .bool(flag) }
        if let text = try parser.string() { return .string(text) }
        if let number = try parser.int() { return .int(number) }
        throw NoValue()
    }

    private func pulled(_ text: String, maxDepth: Int = JSONReader.defaultMaxDepth) throws -> JSONValue {
        try Array(text.utf8).withUnsafeBufferPointer { (bytes) throws in
            var parser = JSONPullParser(bytes, maxDepth: maxDepth)
            let value = try walk(&parser)
            guard parser.atEnd() else { throw NoValue() }
            return value
        }
    }

    @Test(arguments: [
        "{}", "[]", " { } ", "[[],{}]", #"{"a": [1, -2, {"b": null}], "c": true, "d": false, "e": "x\"\\\u00e9"}"#,
        "\n\t[ 1 ,\r\n 2 ]\n", #"{"a": 1, "a": 2}"#, "-9223372036854775808", #""plain""#, "null",
        #"{"k": {"k": {"k": [[[["deep"]]]]}}}"#,
    ])
    func readsWhatJSONReaderReads(text: String) throws {
        #expect(try pulled(text) == JSONReader.parse(text))
    }

    @Test(arguments: [
        #"{"a": 1,}"#, "[1,]", "[1 2]", #"{"a" 1}"#, #"{"a": 1 "b": 2}"#, "[1", #"{"a": 1"#, "tru", "nul",
        #"{1: 2}"#, "[1] 2", #"{"a": "unterminated}"#, "[01]", "",
    ])
    func refusesWhatJSONReaderRefuses(text: String) {
        #expect(throws: (any Error).self) { try JSONReader.parse(text) }
        #expect(throws: (any Error).self) { try pulled(text) }
    }

    @Test func nestingIsBoundedAsInJSONReader() throws {
        let deep = String(repeating: "[", count: 6) + String(repeating: "]", count: 6)
        #expect(try pulled(deep, maxDepth: 6) == JSONReader.parse(deep))
        #expect(throws: JSONReaderError.self) { try pulled(deep, maxDepth: 5) }
        // A skipped value counts the levels the parser is in.
        try Array(#"{"a": [[1]]}"#.utf8).withUnsafeBufferPointer { (bytes) throws in
            var parser = JSONPullParser(bytes, maxDepth: 2)
            #expect(try parser.beginObject())
            #expect(try parser.nextKey() == "a")
            #expect(throws: JSONReaderError.self) { try parser.skipValue() }
        }
    }

    /// A typed reader given another kind of value returns nil.
    @Test func typedReadersSayNilForOtherKinds() throws {
        try Array(#"["s", 1, true, null, 2.5]"#.utf8).withUnsafeBufferPointer { (bytes) throws in
            var parser = JSONPullParser(bytes)
            #expect(try parser.beginArray())
            #expect(try parser.nextElement())
            #expect(try parser.int() == nil)
            #expect(try parser.bool() == nil)
            #expect(try parser.null() == false)
            #expect(try parser.string() == "s")
            #expect(try parser.nextElement())
            #expect(try parser.string() == nil)
            #expect(try parser.int() == 1)
            #expect(try parser.nextElement())
            #expect(try parser.bool() == true)
            #expect(try parser.nextElement())
            #expect(try parser.null())
            #expect(try parser.nextElement())
            #expect(try parser.int() == nil, "a double is not an integer")
        }
    }
}
