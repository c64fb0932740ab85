import DiagImport
import DiagModel
import Testing
import TestSupport

@Suite struct JSONImportTests {
    @Test func readsOurNDJSONBack() throws {
        let records = [
            LogRecord(timestamp: nanoseconds("2026-11-29 09:40:01.123456789Z"), messageType: .error, process: "transport",
                      processID: 42, subsystem: "com.example.sync", category: "upload", activityIdentifier: 7,
                      eventMessage: "Upload to iCloud.com.example.SyncDemo failed: Café 🎉", metadata: ["attempt": 3]),
            LogRecord(timestamp: nanoseconds("2026-11-29 09:40:02Z"), messageType: .debug, eventMessage: "line\nbreak"),
        ]
        let text = records.map { $0.jsonString(offsetSeconds: 3600) + "\n" }.joined()
        let imported = try importText("\n" + text + "\n\n")
        #expect(imported.format == .ndjson)
        #expect(imported.issues.isEmpty)
        #expect(imported.records == records)
    }

    private let appleNDJSON = """
        {"traceID":1118740002308100,"eventMessage":"Scheduling export for store 5A3C…","eventType":"logEvent","source":null,"formatString":"Scheduling export for store %@","activityIdentifier":4021,"subsystem":"com.apple.coredata","category":"cloudkit","threadID":861234,"senderImageUUID":"2A8D3E1E-0000-0000-0000-000000000000","backtrace":{"frames":[{"imageOffset":123,"imageUUID":"2A8D3E1E-0000-0000-0000-000000000000"}]},"bootUUID":"","processImagePath":"\\/Applications\\/SyncDemo.app\\/Contents\\/MacOS\\/SyncDemo","timestamp":"2022-06-04 09:40:01.123456+0200","senderImagePath":"\\/System\\/Library\\/Frameworks\\/CoreData.framework\\/Versions\\/A\\/CoreData","machTimestamp":1234567890,"messageType":"Default","processImageUUID":"11111111-0000-0000-0000-000000000000","processID":812,"senderProgramCounter":4242,"parentActivityIdentifier":0,"timezoneName":""}
        {"eventMessage":"Push received","eventType":"logEvent","processImagePath":"\\/usr\\/libexec\\/apsd","senderImagePath":"\\/usr\\/libexec\\/apsd","timestamp":"2022-06-04 09:40:02.000001+0200","messageType":"Error","processID":99,"threadID":1,"userID":501}
        {"count":2,"finished":1}
        """

    @Test func readsAppleNDJSON() throws {
        let imported = try importText(appleNDJSON)
        #expect(imported.format == .ndjson)
        #expect(imported.issues.isEmpty, "\(imported.issues)")
        #expect(imported.records.count == 2)
        let first = try #require(imported.records.first)
        #expect(first.timestamp == nanoseconds("2022-06-04 07:40:01.123456Z"))
        #expect(first.process == "SyncDemo" && first.sender == "CoreData" && first.processID == 812)
        #expect(first.processImagePath == "/Applications/SyncDemo.app/Contents/MacOS/SyncDemo")
        #expect(first.subsystem == "com.apple.coredata" && first.category == "cloudkit" && first.activityIdentifier == 4021)
        #expect(first.traceID == 1_118_740_002_308_100 && first.formatString == "Scheduling export for store %@")
        #expect(imported.records[1].messageType == .error && imported.records[1].process == "apsd" && imported.records[1].userID == 501)
    }

    @Test func readsAppleJSONArrayElementByElement() throws {
        let text = """
            [{
              "timestamp" : "2022-06-04 09:40:01.123456+0200",
              "messageType" : "Info",
              "eventType" : "logEvent",
              "processImagePath" : "\\/usr\\/libexec\\/cloudd",
              "senderImagePath" : "\\/System\\/Library\\/PrivateFrameworks\\/CloudKitDaemon.framework\\/CloudKitDaemon",
              "processID" : 410,
              "eventMessage" : "Batch of 40 records for iCloud.com.example.SyncDemo, braces } ] and \\" inside"
            },{
              "timestamp" : "2022-06-04 09:40:02.5+0200",
              "messageType" : "Fault",
              "eventType" : "logEvent",
              "eventMessage" : "Second"
            },{
              "count" : 2,
              "finished" : 1
            }]

            """
        let imported = try importText(text)
        #expect(imported.format == .appleJSON)
        #expect(imported.issues.isEmpty, "\(imported.issues)")
        #expect(imported.records.map(\.eventMessage) == ["Batch of 40 records for iCloud.com.example.SyncDemo, braces } ] and \" inside", "Second"])
        #expect(imported.records[0].process == "cloudd" && imported.records[0].sender == "CloudKitDaemon")
        #expect(imported.records[1].messageType == .fault)
    }

    @Test func appleJSONIssuesNameTheLineInsideTheElement() throws {
        let text = "[\n{\"timestamp\":\"2022-06-04 09:40:01+0200\",\"eventMessage\":\"ok\"},\n{\n  \"timestamp\": \"2022-06-04 09:40:01+0200\",\n  \"eventMessage\": tru\n},\n{\"eventMessage\":\"no time\"},\n{\"timestamp\":1,\"eventMessage\":\"last\"}\n]"
        let imported = try importText(text, name: "show.json")
        #expect(imported.records.map(\.eventMessage) == ["ok", "last"])
        #expect(imported.issues.map(\.description) == [
            "show.json:5:19: invalid literal (expected true)",
            #"show.json:7: missing field "timestamp"; accepted: integer nanoseconds since the Unix epoch, or a date such as 2026-07-26T18:11:22.348728Z or 2026-07-26 18:11:22.348728+1200"#,
        ])
    }

    @Test func brokenAppleJSONArrayStopsWithAnIssue() throws {
        let unclosed = try importText("[{\"timestamp\":1,\"eventMessage\":\"a\"},\n{\"timestamp\":2,\"eventMessage\":\"b\"}", name: "a.json")
        #expect(unclosed.records.count == 2)
        #expect(unclosed.issues.map(\.description) == ["a.json:2: the JSON array is not closed: the input ends before ']'; reading stopped"])

        let cut = try importText("[{\"timestamp\":1,\"eventMessage\":\"a\"},\n{\"timestamp\":2,\"eventM", name: "b.json")
        #expect(cut.records.count == 1)
        #expect(cut.issues.map(\.description) == ["b.json:2: the array element starting here is cut short by the end of the input; reading stopped"])

        let garbage = try importText("[{\"timestamp\":1,\"eventMessage\":\"a\"} x {\"timestamp\":2,\"eventMessage\":\"b\"}]", name: "c.json")
        #expect(garbage.records.count == 1)
        #expect(garbage.issues.map(\.description) == ["c.json:1: expected ',' or ']' after an array element but found 'x'; reading stopped"])

        let trailing = try importText("[]\n]", name: "d.json")
        #expect(trailing.records.isEmpty)
        #expect(trailing.issues.map(\.description) == ["d.json:2: unexpected ']' after the closing ']' of the JSON array; reading stopped"])

        let scalar = try importText("[1, {\"timestamp\":2,\"eventMessage\":\"b\"}]", name: "e.json")
        #expect(scalar.records.count == 1)
        #expect(scalar.issues.first?.reason.contains("expected a JSON object") == true)
    }

    @Test func readsJournalctlJSON() throws {
        let text = """
            {"__CURSOR":"s=1;i=2","__REALTIME_TIMESTAMP":"1764409201123456","__MONOTONIC_TIMESTAMP":"123","_BOOT_ID":"b1","PRIORITY":"3","_PID":"4242","_UID":"1000","_COMM":"transport","_EXE":"/usr/bin/transport","SYSLOG_IDENTIFIER":"sync-transport","SYSLOG_FACILITY":"3","_HOSTNAME":"builder","_SYSTEMD_UNIT":"transport.service","CODE_FILE":"Upload.swift","CODE_LINE":"88","MESSAGE":"Upload failed: Straße"}
            {"__REALTIME_TIMESTAMP":"1764409202000000","PRIORITY":"6","_PID":"1","MESSAGE":[72,105,255],"SYSLOG_IDENTIFIER":"kernel"}
            {"__REALTIME_TIMESTAMP":"1764409203000000","PRIORITY":"7","MESSAGE":null}
            {"__REALTIME_TIMESTAMP":"1764409204000000","PRIORITY":"9","MESSAGE":"bad priority"}
            {"PRIORITY":"6","MESSAGE":"no time"}
            {"__REALTIME_TIMESTAMP":"soon","MESSAGE":"bad time"}
            """
        let imported = try importText(text, name: "journal.json")
        #expect(imported.format == .journalJSON)
        #expect(imported.records.count == 3)
        let first = try #require(imported.records.first)
        #expect(first.timestamp == 1_764_409_201_123_456_000)
        #expect(first.messageType == .error && first.processID == 4242 && first.userID == 1000)
        #expect(first.process == "transport" && first.sender == "sync-transport" && first.processImagePath == "/usr/bin/transport")
        #expect(first.subsystem == "transport.service" && first.category == "daemon")
        #expect(first.eventMessage == "Upload failed: Straße")
        #expect(first.metadata?["hostname"] == "builder" && first.metadata?["CODE_FILE"] == "Upload.swift" && first.metadata?["CODE_LINE"] == "88")
        #expect(first.metadata?["__CURSOR"] == "s=1;i=2" && first.metadata?["_PID"] == nil)
        #expect(imported.records[1].eventMessage == "Hi\u{FFFD}" && imported.records[1].process == "kernel" && imported.records[1].messageType == .info)
        #expect(imported.records[2].eventMessage == "" && imported.records[2].messageType == .debug)
        #expect(imported.issues.map(\.description) == [
            #"journal.json:4: field "PRIORITY": refused value "9"; accepted: 0 to 7, as a string or a number"#,
            #"journal.json:5: field "__REALTIME_TIMESTAMP" is missing; accepted: microseconds since the Unix epoch, such as "1764409201123456""#,
            #"journal.json:6: field "__REALTIME_TIMESTAMP" (refused value "soon"); accepted: microseconds since the Unix epoch, such as "1764409201123456""#,
        ])
    }
}
