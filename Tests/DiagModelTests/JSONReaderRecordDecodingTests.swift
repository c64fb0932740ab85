import DiagModel
import Testing

@Suite struct JSONReaderRecordDecodingTests {
    /// Decodes through both paths, the dictionary one and the byte one, and checks they agree.
    private func record(_ text: String) throws -> LogRecord {
        let fromBytes = Result { () throws(LogRecordJSONError) in try LogRecord(jsonBytes: Array(text.utf8)) }
        let fromDictionary = Result { try LogRecord(json: JSONReader.parseObject(text)) }
        switch (fromDictionary, fromBytes) {
        case (.success(let viaDictionary), .success(let viaBytes)): #expect(viaDictionary == viaBytes)
        case (.failure(let viaDictionary), .failure(let viaBytes)): #expect(LogRecordJSONError.invalidRecord(viaDictionary as! LogRecordDecodingError) == viaBytes)
        default: Issue.record("the two decoders disagree: \(fromDictionary) and \(fromBytes)")
        }
        return try fromDictionary.get()
    }

    private func refusal(_ text: String) -> String? {
        do {
            _ = try record(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func decodesEveryField() throws {
        let decoded = try record("""
            {"timestamp":1785046282348728000,"messageType":"error","eventType":"activityCreateEvent",
             "process":"transport","processID":42,"processImagePath":"/usr/bin/transport","userID":1000,
             "sender":"CloudKit","senderImagePath":"/usr/lib/libCloudKit.so","subsystem":"com.example.sync",
             "category":"upload","threadID":7,"activityIdentifier":9001,"parentActivityIdentifier":9000,
             "traceID":5,"eventMessage":"Café","formatString":"%s","signpostID":3,"signpostName":"export",
             "signpostType":"begin","metadata":{"storeIdentifier":"A1"},"receiptTime":1785046282348729000,
             "unknownField":[1,2]}
            """)
        let expected = LogRecord(
            timestamp: 1_785_046_282_348_728_000, messageType: .error, eventType: .activityCreateEvent,
            process: "transport", processID: 42, processImagePath: "/usr/bin/transport", userID: 1000,
            sender: "CloudKit", senderImagePath: "/usr/lib/libCloudKit.so", subsystem: "com.example.sync",
            category: "upload", threadID: 7, activityIdentifier: 9001, parentActivityIdentifier: 9000, traceID: 5,
            eventMessage: "Café", formatString: "%s", signpostID: 3, signpostName: "export", signpostType: "begin",
            metadata: ["storeIdentifier": "A1"], receiptTime: 1_785_046_282_348_729_000)
        #expect(decoded == expected)
    }

    @Test func readsTimestampStrings() throws {
        let apple = try record(#"{"timestamp":"2026-07-26 18:11:22.348728+1200","eventMessage":"m"}"#)
        let iso = try record(#"{"timestamp":"2026-07-26T06:11:22.348728Z","eventMessage":"m"}"#)
        #expect(apple.timestamp == iso.timestamp)
        #expect(apple.timestamp == Timestamp.parse("2026-07-26 06:11:22.348728+0000"))
    }

    @Test func fractionsPastNanosecondsAreCutNotFatal() throws {
        let long = try record(#"{"timestamp":"2026-07-26T06:11:22.123456789987654321Z","eventMessage":"m"}"#)
        #expect(long.timestamp == Timestamp.parse("2026-07-26T06:11:22.123456789Z"))
        #expect(Timestamp.parse("2026-07-26 06:11:22,1234567890123+0100") == Timestamp.parse("2026-07-26 05:11:22.123456789Z"))
        #expect(Timestamp.parse("1.2345678901 2026-07-26") == nil)
    }

    @Test func exactNanosecondsWinOverTheFormattedTimestamp() throws {
        let original = LogRecord(timestamp: 1_785_046_282_348_728_999, messageType: .fault, eventMessage: "x")
        let decoded = try record(original.jsonString(offsetSeconds: 3600))
        #expect(decoded == original)
    }

    @Test(arguments: [
        ("\"Default\"", MessageType.default), ("\"INFO\"", .info), ("\"debug\"", .debug), ("\"Error\"", .error),
        ("\"fault\"", .fault), ("0", .default), ("1", .info), ("2", .debug), ("16", .error), ("17", .fault),
        ("null", .default),
    ])
    func readsMessageTypes(text: String, expected: MessageType) throws {
        #expect(try record(#"{"timestamp":1,"eventMessage":"m","messageType":\#(text)}"#).messageType == expected)
    }

    @Test func readsEventTypesByNameOrCode() throws {
        #expect(try record(#"{"timestamp":1,"eventMessage":"m","eventType":"SIGNPOSTEVENT"}"#).eventType == .signpostEvent)
        #expect(try record(#"{"timestamp":1,"eventMessage":"m","eventType":1792}"#).eventType == .lossEvent)
        #expect(try record(#"{"timestamp":1,"eventMessage":"m"}"#).eventType == .logEvent)
    }

    @Test func messageAliasesAndNullMeansMissing() throws {
        #expect(try record(#"{"timestamp":1,"message":"a"}"#).eventMessage == "a")
        #expect(try record(#"{"timestamp":1,"composedMessage":"b"}"#).eventMessage == "b")
        #expect(try record(#"{"timestamp":1,"eventMessage":"c","message":"d"}"#).eventMessage == "c")
        let nulls = try record(#"{"timestamp":1,"eventMessage":"e","process":null,"processID":null,"metadata":null}"#)
        #expect(nulls.process == nil && nulls.processID == nil && nulls.metadata == nil)
    }

    @Test func repeatedKeysAndAliasesReadTheSameEveryTime() throws {
        #expect(try record(#"{"timestamp":1,"eventMessage":"m","processID":"bad","processID":7}"#).processID == 7)
        #expect(refusal(#"{"timestamp":1,"eventMessage":"m","processID":7,"processID":"bad"}"#)?.hasPrefix(#"field "processID": refused value "bad""#) == true)
        #expect(try record(#"{"timestamp":1,"composedMessage":"c","message":"b"}"#).eventMessage == "b")
        #expect(try record(#"{"timestamp":1,"message":"b","composedMessage":"c"}"#).eventMessage == "b")
    }

    @Test func severalBadFieldsAlwaysGiveTheSameMessage() throws {
        let members: [(String, JSONValue)] = [
            ("userID", "u"), ("threadID", "t"), ("category", 1), ("processID", "p"), ("eventMessage", "m"), ("timestamp", 1),
        ]
        // Dictionaries of different capacities iterate in different orders.
        for capacity in [1, 6, 13, 29, 61, 125] {
            var object = [String: JSONValue](minimumCapacity: capacity)
            for (key, value) in members { object[key] = value }
            #expect(throws: LogRecordDecodingError(field: "processID", refused: "p", accepted: "an integer from -2^63 to 2^63-1")) {
                try LogRecord(json: object)
            }
        }
    }

    @Test func defaultTimestampFillsAMissingOne() throws {
        let decoded = try LogRecord(json: JSONReader.parseObject(#"{"eventMessage":"m","timestamp":null}"#), defaultTimestamp: 77)
        #expect(decoded.timestamp == 77)
    }

    @Test(arguments: [
        (#"{"timestamp":1}"#, #"missing field "eventMessage"; accepted: a string (also named message or composedMessage)"#),
        (#"{"eventMessage":"m"}"#, #"missing field "timestamp""#),
        (#"{"timestamp":"yesterday","eventMessage":"m"}"#, #"field "timestamp": refused value "yesterday"; accepted: integer nanoseconds"#),
        (#"{"timestamp":true,"eventMessage":"m"}"#, #"field "timestamp": refused value true"#),
        (#"{"timestamp":1,"eventMessage":5}"#, #"field "eventMessage": refused value 5; accepted: a string"#),
        (#"{"timestamp":1,"eventMessage":"m","messageType":"loud"}"#, #"field "messageType": refused value "loud"; accepted: Default, Info, Debug, Error or Fault"#),
        (#"{"timestamp":1,"eventMessage":"m","messageType":3}"#, #"field "messageType": refused value 3"#),
        (#"{"timestamp":1,"eventMessage":"m","messageType":4294967296}"#, #"field "messageType": refused value 4294967296"#),
        (#"{"timestamp":1,"eventMessage":"m","eventType":"party"}"#, #"field "eventType": refused value "party"; accepted: activityCreateEvent"#),
        (#"{"timestamp":1,"eventMessage":"m","processID":"42"}"#, #"field "processID": refused value "42"; accepted: an integer"#),
        (#"{"timestamp":1,"eventMessage":"m","threadID":1.5}"#, #"field "threadID": refused value 1.5"#),
        (#"{"timestamp":1,"eventMessage":"m","processID":1e300}"#, #"field "processID": refused value"#),
        (#"{"timestamp":1,"eventMessage":"m","metadata":[1]}"#, #"field "metadata": refused value [1]; accepted: a JSON object"#),
        (#"{"timestamp":1,"eventMessage":"m","process":{"a":1}}"#, #"field "process": refused value {"a":1}; accepted: a string"#),
    ])
    func refusesWrongTypesNamingFieldValueAndAccepted(text: String, expected: String) {
        let message = refusal(text)
        #expect(message?.hasPrefix(expected) == true, "\(message ?? "accepted")")
    }

    @Test func cutsLongRefusedValues() {
        let long = String(repeating: "x", count: 10_000)
        let message = refusal(#"{"timestamp":1,"eventMessage":"m","processID":"\#(long)"}"#) ?? ""
        #expect(message.count < 300)
        #expect(message.contains("…"))
    }

    @Test func byteDecoderReportsBadJSONBeforeBadFields() throws {
        #expect {
            _ = try LogRecord(jsonBytes: Array(#"{"messageType":"loud","eventMessage":"m","timestamp":1,}"#.utf8))
        } throws: { error in
            guard case .invalidJSON(let json) = error as? LogRecordJSONError else { return false }
            return json.offset == 55 && json.reason.contains("expected a string key")
        }
        #expect {
            _ = try LogRecord(jsonBytes: Array(#"{"t\u0069mestamp":5,"eventMessage":"m","processID":"x"} "#.utf8))
        } throws: { error in
            guard case .invalidRecord(let record) = error as? LogRecordJSONError else { return false }
            return record.field == "processID"
        }
        #expect(try LogRecord(jsonBytes: Array(#"{"t\u0069mestamp":5,"eventMessage":"m"}"#.utf8)).timestamp == 5)
        #expect(throws: LogRecordJSONError.self) { try LogRecord(jsonBytes: Array("[]".utf8)) }
        #expect(throws: LogRecordJSONError.self) { try LogRecord(jsonBytes: Array("{}".utf8)) }
        #expect(throws: LogRecordJSONError.self) { try LogRecord(jsonBytes: Array(#"{"eventMessage":"m","timestamp":1} x"#.utf8)) }
    }
}
