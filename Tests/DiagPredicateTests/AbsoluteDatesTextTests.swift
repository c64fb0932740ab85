import DiagModel
import Testing

@testable import DiagPredicate

/// `textWithAbsoluteDates`: what `diag stream` sends diagd, which reads zone-less dates as UTC.
@Suite struct AbsoluteDatesTextTests {
    /// A fixed +0100 (Paris in winter).
    static let plusOne = DateLiteralZone { _ in 3600 }

    @Test func zoneLessDatesBecomeTheInstantsReadInTheZone() throws {
        let text = #"timestamp > "2022-06-04 10:40:00" AND (process == "apsd" OR timestamp BETWEEN {"2022-06-04", "2022-06-04 09:40:00Z"})"#
        let predicate = try Predicate.parse(text, dateZone: Self.plusOne)
        #expect(predicate.textWithAbsoluteDates == #"timestamp > "2022-06-04T09:40:00.000000000Z" AND (process == "apsd" OR timestamp BETWEEN {"2022-06-03T23:00:00.000000000Z", "2022-06-04T09:40:00.000000000Z"})"#)
        // Read again as UTC, it selects what the original selects in +0100.
        let again = try Predicate.parse(predicate.textWithAbsoluteDates)
        for offset: Int64 in [-2, -1, 0, 1, 2, 3_600, -36_000] {
            let probe = record(process: "other", timestamp: wwdcStart + offset * 1_000_000_000)
            #expect(again.evaluate(probe) == predicate.evaluate(probe), "at \(offset) s")
        }
        // The plain description keeps the literals as typed.
        #expect(predicate.description.contains(#""2022-06-04 10:40:00""#))
    }

    @Test func otherStringsAndUnreadableDatesStayAsWritten() throws {
        let predicate = try Predicate.parse(#"eventMessage == "2022-06-04 10:40:00" AND timestamp < "not a date""#, dateZone: Self.plusOne)
        #expect(predicate.textWithAbsoluteDates == #"eventMessage == "2022-06-04 10:40:00" AND timestamp < "not a date""#)
    }
}
