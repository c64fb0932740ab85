@testable import DiagBundle
import Testing

struct TextInternerTests {
    private func number(_ interner: inout TextInterner, _ text: String?) -> Int32 {
        guard let text else { return interner.number(nil) }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { interner.number(UnsafeBufferPointer($0)) }
    }

    @Test func equalBytesGetOneNumberAndDistinctBytesAnother() {
        var interner = TextInterner()
        let values = ["synccore", "schedulerd", "synccore", "", "Café", "Cafe\u{301}", "schedulerd", "", "synccore"]
        let numbers = values.map { number(&interner, $0) }
        #expect(numbers == [1, 2, 1, 3, 4, 5, 2, 3, 1])
        #expect(interner.texts == [nil, "synccore", "schedulerd", "", "Café", "Cafe\u{301}"])
    }

    @Test func nullIsZeroAndNotTheEmptyText() {
        var interner = TextInterner()
        #expect(number(&interner, nil) == 0)
        #expect(number(&interner, "") == 1)
        #expect(number(&interner, nil) == 0)
        #expect(interner.texts == [nil, ""])
    }

    @Test func manyValuesKeepTheirNumbers() {
        var interner = TextInterner()
        let values = (0..<5_000).map { "process-\($0 % 1_000)-\($0 % 7 == 0 ? "x" : "y")" }
        var seen: [String: Int32] = [:]
        for value in values {
            let found = number(&interner, value)
            if let earlier = seen[value] { #expect(found == earlier) } else { seen[value] = found }
            #expect(interner.texts[Int(found)] == value)
        }
        #expect(interner.texts.count == seen.count + 1)
    }
}
