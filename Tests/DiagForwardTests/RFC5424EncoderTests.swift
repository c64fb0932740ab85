import DiagForward
import DiagModel
import Testing

@Suite struct RFC5424EncoderTests {
    /// 2025-11-29 09:40:01.123456789 UTC.
    let time: Int64 = 1_764_409_201_123_456_789
    let encoder = RFC5424Encoder(facility: 1, hostname: "build-7", utcOffset: 3600)

    @Test func headerStructuredDataAndMessage() {
        let record = LogRecord(
            timestamp: time, messageType: .error, process: "syncd", processID: 4242, sender: "SyncCore",
            subsystem: "com.example.sync", category: "upload", activityIdentifier: 77, eventMessage: "upload failed: café ☕")
        let message = encoder.message(for: record)
        #expect(message == "<11>1 2025-11-29T10:40:01.123456+01:00 build-7 syncd 4242 upload [diag@32473 subsystem=\"com.example.sync\" sender=\"SyncCore\" activity=\"77\"] \u{FEFF}upload failed: café ☕")
    }

    @Test(arguments: [
        (MessageType.fault, 2), (.error, 3), (.default, 5), (.info, 6), (.debug, 7),
    ])
    func priorityFromLevelAndFacility(level: MessageType, severity: Int) {
        let record = LogRecord(timestamp: time, messageType: level, eventMessage: "x")
        let local7 = RFC5424Encoder(facility: 23, hostname: "h", utcOffset: 0)
        #expect(local7.message(for: record).hasPrefix("<\(23 * 8 + severity)>1 2025-11-29T09:40:01.123456Z h - - - [diag@32473] x"))
    }

    @Test func escapesStructuredDataValues() {
        let record = LogRecord(timestamp: time, subsystem: #"a"b\c]d"#, eventMessage: "m")
        #expect(encoder.message(for: record).contains(#"[diag@32473 subsystem="a\"b\\c\]d"]"#))
    }

    @Test func headerFieldsArePrintableASCIIWithinTheirLengths() {
        let longCategory = String(repeating: "c", count: 40)
        let record = LogRecord(timestamp: time, process: "Café app", processID: 9, category: longCategory, eventMessage: "m")
        let fields = encoder.message(for: record).split(separator: " ")
        #expect(fields[3] == "Caf__app")
        #expect(fields[5] == Substring(String(repeating: "c", count: 32)))
        // The exact values travel in the structured data.
        #expect(encoder.message(for: record).contains("[diag@32473 process=\"Café app\" category=\"\(longCategory)\"]"))
        let hostile = RFC5424Encoder(hostname: "host name\u{0}é", utcOffset: 0)
        #expect(hostile.hostname == "host_name__")
        #expect(RFC5424Encoder(hostname: "", utcOffset: 0).hostname == "-")
    }

    @Test func otherFieldsAndMetadata() {
        var record = LogRecord(
            timestamp: time, eventType: .signpostEvent, userID: 501, threadID: 12, traceID: 99, eventMessage: "",
            signpostID: 5, signpostName: "sync", signpostType: "begin", metadata: ["zone": "Photos"])
        record.formatString = "%s"
        let message = encoder.message(for: record)
        #expect(message.hasSuffix(#"[diag@32473 thread="12" trace="99" eventType="signpostEvent" userID="501" formatString="%s" signpostID="5" signpostName="sync" signpostType="begin" metadata="{\"zone\":\"Photos\"}"]"#))
    }

    @Test func integersOfEveryRangeAreWrittenInDecimal() {
        let record = LogRecord(timestamp: time, processID: 0, threadID: .min, activityIdentifier: -5, traceID: .max, eventMessage: "m")
        let message = encoder.message(for: record)
        #expect(message.contains(" - 0 - [diag@32473 activity=\"-5\" thread=\"-9223372036854775808\" trace=\"9223372036854775807\"]"), "\(message)")
    }

    @Test func byteOrderMarkOnlyBeforeMessagesOutsideASCII() {
        #expect(encoder.message(for: LogRecord(timestamp: time, eventMessage: "plain")).hasSuffix("] plain"))
        #expect(encoder.message(for: LogRecord(timestamp: time, eventMessage: "é")).utf8.suffix(6).elementsEqual([0x20, 0xEF, 0xBB, 0xBF, 0xC3, 0xA9]))
    }

    @Test func octetCountedFrameCountsBytesNotCharacters() {
        let record = LogRecord(timestamp: time, eventMessage: "日本語")
        let frame = encoder.frame(for: record)
        let message = Array(encoder.message(for: record).utf8)
        #expect(frame == Array("\(message.count) ".utf8) + message)
    }
}
