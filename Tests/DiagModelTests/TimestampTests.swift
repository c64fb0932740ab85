import DiagModel
import Testing

@Suite struct TimestampTests {
    @Test func formatsAsLogShowDoes() {
        let ns: Int64 = 1_764_409_201_123_456_789  // 2025-11-29 09:40:01.123456789 UTC
        #expect(Timestamp.format(nanoseconds: ns) == "2025-11-29 09:40:01.123456+0000")
        #expect(Timestamp.format(nanoseconds: ns, offsetSeconds: 12 * 3600) == "2025-11-29 21:40:01.123456+1200")
        #expect(Timestamp.format(nanoseconds: ns, offsetSeconds: -(3 * 3600 + 1800)) == "2025-11-29 06:10:01.123456-0330")
        #expect(Timestamp.formatISO8601(nanoseconds: ns, fractionDigits: 9) == "2025-11-29T09:40:01.123456789Z")
    }

    @Test func appendsAfterWhatIsThereWithAnySeparatorAndPrecision() {
        let ns: Int64 = 1_764_409_201_123_456_789
        var bytes = Array("t=".utf8)
        Timestamp.append(nanoseconds: ns, offsetSeconds: 5 * 3600 + 45 * 60, fractionDigits: 3, separator: "→",
                         zoneColon: true, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "t=2025-11-29→15:25:01.123+05:45")
        bytes = []
        Timestamp.append(nanoseconds: ns, offsetSeconds: 0, fractionDigits: 0, separator: "T", zoneColon: false, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "2025-11-29T09:40:01+0000")
    }

    @Test func formatsBeforeTheEpoch() {
        #expect(Timestamp.format(nanoseconds: -1) == "1969-12-31 23:59:59.999999+0000")
    }

    @Test(arguments: [
        ("2025-11-29", Int64(1_764_374_400) * 1_000_000_000),
        ("2025-11-29 09:40:01", Int64(1_764_409_201) * 1_000_000_000),
        ("2025-11-29T09:40:01Z", Int64(1_764_409_201) * 1_000_000_000),
        ("2025-11-29 09:40:01.5+0100", Int64(1_764_405_601) * 1_000_000_000 + 500_000_000),
        ("2025-11-29 09:40:01.123456789-01:30", Int64(1_764_414_601) * 1_000_000_000 + 123_456_789),
        ("2025-11-29 09:40", Int64(1_764_409_200) * 1_000_000_000),
    ])
    func parsesTheLogFormats(text: String, expected: Int64) {
        #expect(Timestamp.parse(text) == expected)
    }

    @Test(arguments: ["", "2025-13-01", "2025-02-30", "2025-11-29 25:00", "2025-11-29x", "29/11/2025", "2025-11-29 09:40:01.", "2025-11-29+2"])
    func refusesMalformedDates(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func keepsNanosecondsOfALongerFraction() {
        // Found by Fuzz/Import: a fraction past nine digits used to trap.
        #expect(Timestamp.parse("2025-11-29T09:40:01.1234567891234Z") == Int64(1_764_409_201) * 1_000_000_000 + 123_456_789)
        #expect(Timestamp.parse("2025-11-29T09:40:01." + String(repeating: "9", count: 5000) + "Z") == Int64(1_764_409_201) * 1_000_000_000 + 999_999_999)
    }

    @Test func roundTripsThroughFormat() {
        for ns in stride(from: Int64(-5_000_000_000_000_000), to: 5_000_000_000_000_000_000, by: 123_456_789_012_345_678) {
            let micro = ns - ((ns % 1000) + 1000) % 1000
            #expect(Timestamp.parse(Timestamp.format(nanoseconds: micro)) == micro)
        }
    }
}
