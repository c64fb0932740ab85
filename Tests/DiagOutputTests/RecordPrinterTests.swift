import DiagModel
import DiagOutput
import Foundation
import Testing

@Suite struct RecordPrinterTests {
    @Test func defaultStyleHasLogColumnsAndSummary() throws {
        let text = try printed(sampleRecords, style: .default)
        #expect(text == """
            Timestamp                       Thread     Type        Activity             PID    TTL  
            2026-11-29 09:40:01.123456+0000 0x1a2b     Default     0x0                  4242   0    transport: (Transport) [com.example.sync:upload] upload started
            2026-11-29 09:40:01.124456+0000 0xff       Error       0x2f                 7      0    scheduler: job "refresh" failed\twith code 3
            2026-11-29 09:40:03.123456+0000 0x1        Activity    0x30                 100    0    sync-core: (SyncCore) [com.example.sync] sync pass
            --------------------------------------------------------------------------------------------------------------------
            Log      - Default:          1, Info:                0, Debug:             0, Error:          1, Fault:          0
            Activity - Create:           1, Transition:          0, Actions:           0

            """)
    }

    @Test func emptyDefaultOutputStillHasHeaderAndSummary() throws {
        let text = try printed([], style: .default)
        #expect(text.hasPrefix("Timestamp                       Thread"))
        #expect(text.contains("Log      - Default:          0, Info:                0"))
    }

    @Test func compactStyle() throws {
        let text = try printed(sampleRecords, style: .compact)
        #expect(text == """
            Timestamp               Ty Process[PID:TID]
            2026-11-29 09:40:01.123 Df transport[4242:1a2b] [com.example.sync:upload] upload started
            2026-11-29 09:40:01.124 E  scheduler[7:ff] job "refresh" failed\twith code 3
            2026-11-29 09:40:03.123 A  sync-core[100:1] [com.example.sync] sync pass

            """)
    }

    @Test func syslogStyle() throws {
        let text = try printed(Array(sampleRecords.prefix(2)), style: .syslog)
        #expect(text == """
            Timestamp                       (process)[PID]    
            2026-11-29 09:40:01.123456+0000  localhost transport[4242]: (Transport) [com.example.sync:upload] upload started
            2026-11-29 09:40:01.124456+0000  localhost scheduler[7]: job "refresh" failed\twith code 3

            """)
    }

    @Test func ndjsonIsOneParsableObjectPerLine() throws {
        let text = try printed(sampleRecords, style: .ndjson)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == #"{"timestamp":"2026-11-29 09:40:01.123456+0000","timestampNanoseconds":1795945201123456789,"messageType":"Default","eventType":"logEvent","process":"transport","processID":4242,"sender":"Transport","subsystem":"com.example.sync","category":"upload","threadID":6699,"eventMessage":"upload started"}"#)
        for line in lines {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }

    @Test func jsonIsOnePrettyArray() throws {
        let text = try printed(Array(sampleRecords.prefix(2)), style: .json)
        #expect(text.hasPrefix("[{\n  \"timestamp\" : \"2026-11-29 09:40:01.123456+0000\",\n  \"timestampNanoseconds\" : 1795945201123456789,\n"))
        #expect(text.contains("\n},{\n"))
        #expect(text.contains("  \"metadata\" : {\n    \"attempt\" : 2,\n    \"job\" : \"refresh\"\n  }\n}]\n"))
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 2)
        #expect(parsed?[1]["eventMessage"] as? String == "job \"refresh\" failed\twith code 3")
        #expect(try printed([], style: .json) == "[]\n")
    }

    @Test func timestampsFollowTheZone() throws {
        let fixed = try #require(DisplayZone(parsing: "-0530"))
        #expect(try printed([sampleRecords[0]], style: .ndjson, zone: fixed).contains("\"2026-11-29 04:10:01.123456-0530\""))
        let paris = try #require(DisplayZone(parsing: "Europe/Paris"))
        #expect(try printed([sampleRecords[0]], style: .compact, zone: paris).contains("2026-11-29 10:40:01.123 Df"))
        // Summer time: the same zone is two hours ahead in July.
        var july = sampleRecords[0]
        july.timestamp = 1_783_000_000_000_000_000  // 2026-07-02 13:46:40 UTC
        #expect(try printed([july], style: .syslog, zone: paris).contains("2026-07-02 15:46:40.000000+0200  localhost"))
    }

    @Test func zoneNamesAndOffsetsAreCheckedWhenParsed() {
        #expect(DisplayZone(parsing: "+02") != nil)
        #expect(DisplayZone(parsing: "+02:30") != nil)
        #expect(DisplayZone(parsing: "UTC") != nil)
        #expect(DisplayZone(parsing: "Mars/Olympus") == nil)
        #expect(DisplayZone(parsing: "+25") == nil)
        #expect(DisplayZone(parsing: "+0575") == nil)
        #expect(DisplayZone(parsing: "+1") == nil)
        #expect(DisplayZone(parsing: "") == nil)
        #expect(DisplayZone(parsing: " \t ") == nil)
        // Blanks around a name or an offset are not part of it.
        #expect(DisplayZone(parsing: " utc\t")?.name == "UTC")
        #expect(["Z", "z", " GMT", "gMt\n", "\u{00A0}UTC\u{2003}"].allSatisfy { DisplayZone(parsing: $0)?.name == "UTC" })
        #expect(DisplayZone(parsing: "\t+0530 ")?.name == "+0530")
        #expect(DisplayZone(parsing: " Europe/Paris ")?.name == "Europe/Paris")
        #expect(DisplayZone.fromEnvironment([:], localtime: "/nonexistent/localtime").name == "UTC")
        #expect(DisplayZone.fromEnvironment(["TZ": ":Asia/Tokyo"]).name == "Asia/Tokyo")
        #expect(DisplayZone.fromEnvironment(["TZ": "Nowhere/Land"]).name == "UTC")
    }

    @Test func colourMarksLevelsOnlyWhenAsked() throws {
        let colored = try printed(Array(sampleRecords.prefix(2)), style: .default, colored: true)
        #expect(colored.contains("\u{1B}[31mError\u{1B}[0m       0x2f"))
        #expect(!colored.contains("\u{1B}[0mDefault"))
        #expect(!(try printed(sampleRecords, style: .default)).contains("\u{1B}["))
        #expect(ColorMode.auto.enabled(isTerminal: false) == false)
        #expect(ColorMode.auto.enabled(isTerminal: true, environment: [:]))
        #expect(ColorMode.none.enabled(isTerminal: true) == false)
    }
}
