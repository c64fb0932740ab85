import DiagCommandLine
import DiagOutput
import Testing
@testable import DiagCLI

@Suite struct TimeArgumentTests {
    @Test func datesTimesZonesAndUnixTimes() throws {
        let utc = DisplayZone.utc
        #expect(try TimeArgument.instant("2026-11-29", option: "--start", zone: utc) == 1_795_910_400_000_000_000)
        #expect(try TimeArgument.instant("2026-11-29 09:40:01", option: "--start", zone: utc) == 1_795_945_201_000_000_000)
        #expect(try TimeArgument.instant("2026-11-29 10:40:01+0100", option: "--start", zone: utc) == 1_795_945_201_000_000_000)
        #expect(try TimeArgument.instant("2026-11-29 04:40:01-0500", option: "--start", zone: utc) == 1_795_945_201_000_000_000)
        #expect(try TimeArgument.instant("@1795945201", option: "--start", zone: utc) == 1_795_945_201_000_000_000)
        #expect(try TimeArgument.instant("@1795945201.5", option: "--start", zone: utc) == 1_795_945_201_500_000_000)
    }

    @Test func timesWithoutZoneAreReadInTheDisplayZone() throws {
        let paris = try #require(DisplayZone(parsing: "Europe/Paris"))
        #expect(try TimeArgument.instant("2026-11-29 10:40:01", option: "--start", zone: paris) == 1_795_945_201_000_000_000)
        #expect(try TimeArgument.instant("2026-07-02 15:46:40", option: "--start", zone: paris) == 1_783_000_000_000_000_000)
        let fixed = try #require(DisplayZone(parsing: "+0200"))
        #expect(try TimeArgument.instant("2026-11-29 11:40:01", option: "--start", zone: fixed) == 1_795_945_201_000_000_000)
    }

    @Test func badTimesNameTheOptionAndTheForms() {
        for bad in ["yesterday", "2026-13-01", "2026-02-30", "29/11/2026", "@", "@soon", "2026-11-29 25:00", ""] {
            #expect(throws: ValidationError.self) { try TimeArgument.instant(bad, option: "--end", zone: .utc) }
        }
        do {
            _ = try TimeArgument.instant("noon", option: "--end", zone: .utc)
        } catch let error as ValidationError {
            #expect(error.message == "The value 'noon' is invalid for '--end'; accepted: \(TimeArgument.accepted)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func durations() throws {
        #expect(try TimeArgument.duration("30s") == 30_000_000_000)
        #expect(try TimeArgument.duration("5m") == 300_000_000_000)
        #expect(try TimeArgument.duration("2h") == 7_200_000_000_000)
        #expect(try TimeArgument.duration("1d") == 86_400_000_000_000)
        #expect(try TimeArgument.duration("45") == 45_000_000_000)
        for bad in ["", "m", "-5m", "0s", "1w", "1.5h", "99999999999999d"] {
            #expect(throws: ValidationError.self) { try TimeArgument.duration(bad) }
        }
    }
}
