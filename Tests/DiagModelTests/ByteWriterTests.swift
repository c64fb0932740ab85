import DiagModel
import Testing

/// The shared pointer writer escapes strings as `JSONWriter` does and grows from any size.
@Suite struct ByteWriterTests {
    @Test func jsonStringsMatchJSONWriterAtEveryLengthAndOffset() {
        var writer = ByteWriter(capacity: 64)
        for length in 0..<20 {
            for special in ["\"", "\\", "\u{0}", "\u{1F}", "\n", "\t", "é", "𝄞", "\u{7F}", "/", "a"] {
                for offset in 0...length {
                    var text = Array(repeating: "x", count: length)
                    text.insert(special, at: offset)
                    let string = text.joined()
                    var expected = JSONWriter(reservingCapacity: 64)
                    expected.append(string: string)
                    writer.count = 0
                    var copy = string
                    _ = copy.withUTF8 { writer.appendJSONString($0) }
                    #expect(Array(writer.bytes) == expected.bytes, "\(string.debugDescription)")
                }
            }
        }
    }

    @Test func asciiOnlyStopsAtTheFirstByteBeyondASCIIHavingWrittenNothing() {
        var writer = ByteWriter(capacity: 64)
        writer.append("kept")
        var text = "0123456789abcdef é and more"
        let written = text.withUTF8 { writer.appendJSONString($0, asciiOnly: true) }
        #expect(!written)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "kept")
        var plain = "plain \"ascii\""
        #expect(plain.withUTF8 { writer.appendJSONString($0, asciiOnly: true) })
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"kept"plain \"ascii\"""#)
    }

    @Test func digitsAppendedToBytesAreStringsDigits() {
        for value: Int64 in [0, 9, 10, 99, 100, -1, -64, 1 << 57, .max, .min] {
            var bytes: [UInt8] = Array("[".utf8)
            Digits.append(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "[" + String(value))
        }
    }

    @Test func digitsAndGrowth() {
        var writer = ByteWriter(capacity: 1)
        for value: Int64 in [0, 9, 10, 99, 100, -1, .max, .min] {
            writer.count = 0
            writer.appendDigits(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
        writer.count = 0
        let long = String(repeating: "\u{1}", count: 10_000)
        var copy = long
        _ = copy.withUTF8 { writer.appendJSONString($0) }
        #expect(writer.count == 10_000 * 6 + 2)
    }

    /// A pool's round trip: the memory taken out of one writer is adopted, empty and at its
    /// capacity, by the next, which grows from it like any writer (its deinit frees what it ends with).
    @Test func storageTakenOutIsAdoptedEmptyAtItsCapacity() {
        var first = ByteWriter(capacity: 100)
        first.append("some frames")
        let storage = first.takeStorage()
        #expect(storage.capacity == 100)
        var second = ByteWriter(adopting: storage.base, capacity: storage.capacity)
        #expect(second.count == 0 && second.capacity == 100 && second.base == storage.base)
        let text = String(repeating: "x", count: 1000)
        var copy = text
        copy.withUTF8 { second.append($0) }
        #expect(String(decoding: second.bytes, as: UTF8.self) == text)
        #expect(second.capacity >= 1000)
    }
}
