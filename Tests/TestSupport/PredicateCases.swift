/// The predicate cases shared by the predicate tests (SQL ≡ Swift) and the fleet tests
/// (PostgreSQL ≡ `diag show`): one list, so a case added for the planner is checked everywhere.
public enum PredicateCases {
    /// Planner equivalence over records full of nils, Unicode and metadata.
    public static let plannerEquivalence: [String] = [
        #"process == "apsd""#, #"process != "apsd""#, #"process <> nil"#, #"process == nil"#,
        #""apsd" == process"#, #"process > "apsd""#, #"process <= "cloudd""#, #""m" < process"#,
        #"process IN {"apsd", "dasd", nil}"#, #"process IN {"apsd", 3}"#, #"NOT (process IN {"apsd", "dasd"})"#,
        #"{"apsd", "cloudd"} CONTAINS process"#, #"process IN {}"#, #"process BETWEEN {"b", "d"}"#,
        #"process BEGINSWITH "Caf""#, #"process BEGINSWITH "cafe""#, #"process BEGINSWITH "a""#, #"process BEGINSWITH "\U0010FFFF""#,
        #"process ==[c] "APSD""#, #"process ==[n] "apsd""#, #"process ==[cd] "cafe""#, #"process CONTAINS "a""#,
        #"process == "a\000b""#, #"process == 5"#, #"process != 5"#, #"process < 5"#,
        "processID == 120", "processID != 120", "processID > 150 AND processID <= 250", "processID == nil",
        "processID IN {1, 2, 3, 120, 299}", "processID BETWEEN {100, 200}", "processID == 120.0", "processID < 10.5",
        #"processID == "120""#, #"processID != "120""#, "processID == TRUE", "100 < processID", "processID ==[c] 120",
        "messageType == error", "messageType >= error", "messageType IN {info, debug}", "messageType == 16",
        #"messageType == "fault""#, #"messageType == "nonsense""#, #"messageType != "nonsense""#, "logType < default",
        "type == error", "type == logEvent", "type == 1024", "type IN {fault, activityCreateEvent}", "type >= info",
        "eventType == activityCreateEvent", "eventType != logEvent", "eventType > 600",
        #"timestamp >= "2022-06-04 09:42:00" AND timestamp < "2022-06-04 09:44:00""#,
        #"timestamp > "2022-06-04 09:45:00Z""#, #"date <= "2022-06-04 09:41:00+0000""#,
        #"timestamp BETWEEN {"2022-06-04 09:41", "2022-06-04 09:43"}"#, #"timestamp == "2022-06-04 09:40:00""#,
        #"timestamp > "not a date""#, #"timestamp != "not a date""#, "timestamp > 5", #""2022-06-04 09:43" > timestamp"#,
        #"metadata.storeIdentifier == "ABC""#, #"metadata.storeIdentifier != "ABC""#, "metadata.count > 2",
        "metadata.count == nil", "metadata.count != nil", "metadata.ratio <= 0.5", "metadata.flag == 1", "metadata.flag == TRUE",
        #"metadata.tags == "a""#, #"metadata.tags CONTAINS "a""#, "metadata.obj == nil", #"metadata.storeIdentifier ==[c] "abc""#,
        "metadata.nothing == nil", #"metadata.count == "3""#, "metadata.storeIdentifier < 5",
        #"sender == "CoreData" OR sender == "CloudKit""#, #"sender == process"#, #"sender != process"#, "processID < threadID",
        #"subsystem == "" OR subsystem == nil"#, #"NOT subsystem == "com.apple.apsd""#,
        #"NOT (sender == "UIKit" OR processID > 200)"#, #"NOT (process CONTAINS "a")"#,
        #"message CONTAINS[cd] "icloud.com.example""#, #"message CONTAINS "Café""#, #"message CONTAINS[d] "cafe""#,
        #"message BEGINSWITH "push""#, #"message ENDSWITH "42""#, #"message LIKE "*error ?2*""#, #"message LIKE[c] "*CAFÉ*""#,
        #"message MATCHES ".*error [0-9]+.*""#, #"message MATCHES[c] "PUSH.*""#, #"message MATCHES[d] ".*cafe.*""#, #"message MATCHES[c] ".*kelvin.*""#,
        #"message MATCHES ".*(token|push).*""#, #"message MATCHES "[^x]*x\*y.*""#, #"message CONTAINS[c] "kelvin""#, #"message == "push""#, #""push" IN message"#,
        #"process == "apsd" AND message CONTAINS[cd] "CoreDataCloudKitDemo""#,
        #"message CONTAINS[cd] "CoreDataCloudKitDemo" AND process == "apsd""#,
        #"process == "apsd" OR message CONTAINS "push""#, #"(process == "apsd" OR process == "dasd") AND messageType == error"#,
        "#size == nil", "bootUUID != nil", "signpostScope == process", "signpostType == begin", #"signpostType != end"#,
        "signpostScope == thread", "signpostScope != system", "signpostScope IN {thread, system}", "NOT signpostScope == process",
        "signpostScope == nil", "signpostScope != nil", "signpostType IN {begin, end}", "signpostType == event AND signpostScope == thread",
        "signpostIdentifier == 7", "signpostID != 7", "signpostName == \"export\"", "signpostName BEGINSWITH \"ex\"",
        "TRUEPREDICATE", "FALSEPREDICATE", "NOT TRUEPREDICATE", "SELF != nil", "1 == 1", #""a" IN {"b"}"#,
        #"ANY process == "apsd""#, #"ALL processID > 100"#, #"NONE sender == "CoreData""#,
        #"process == "apsd" AND NOT (processID == nil) AND (messageType == error OR TRUEPREDICATE)"#,
        #"NOT (NOT (process == "apsd") AND processID > 10)"#, "NOT (processID > 100 OR FALSEPREDICATE)",
        #"activityIdentifier == 77 AND parentActivityIdentifier == nil AND traceID != 5"#,
        #"category IN[c] {"CONNECTION"}"#, #"formatString == "%s""#, #"processImagePath ENDSWITH "apsd""#,
    ]

    /// The planner through a real `LogStore`, over DiagGenerator's records.
    public static let storeEquivalence: [String] = [
        #"process == "notifier""#, #"process IN {"transport", "scheduler"} AND messageType == error"#,
        #"messageType >= error"#, #"type == fault OR type == activityCreateEvent"#, #"messageType IN {info, debug}"#,
        #"message CONTAINS[cd] "title is a required value""#, #"message CONTAINS "Straße""#, #"message CONTAINS[cd] "strasse""#,
        #"message CONTAINS[cd] "zoe's notes""#, #"message CONTAINS[c] "東京""#, #"message BEGINSWITH "Received push""#,
        #"message ENDSWITH "→ defer""#, #"message LIKE[c] "*ckerror * (zonebusy)*""#,
        #"message MATCHES ".*CKError [0-9]+ \\((ZoneBusy|QuotaExceeded)\\).*""#, #"message MATCHES[c] ".*http 2[0-9][0-9].*""#,
        #"message MATCHES ".*\\d{5}\\D.*" AND process == "transport""#,
        #"process == "sync-core" AND timestamp >= "2026-11-29 09:40:02" AND timestamp < "2026-11-29 09:40:03""#,
        #"timestamp BETWEEN {"2026-11-29 09:40:01.5", "2026-11-29 09:40:02.5"}"#, #"date > "2030-01-01""#,
        #"subsystem BEGINSWITH "com.example.sync.""#, #"subsystem == "com.example.sync.notifier" AND category == "push""#,
        #"sender != "notifier""#, #"activityIdentifier == nil"#, #"processID > 10000 AND threadID < 5000000"#,
        #"NOT (process == "transport" OR message CONTAINS "Batch")"#, #"parentActivityIdentifier != nil"#,
        #"(process == "notifier" AND message CONTAINS[cd] "push") OR (process == "scheduler" AND message CONTAINS "defer")"#,
    ]

    /// The predicates of WWDC22 session 10119 (PREDICATES.md §11).
    public enum WWDC {
        public static let demo = #"process = "CoreDataCloudKitDemo" AND (sender = "CoreData" OR sender = "CloudKit")"#
        public static let cloudd = #"process = "cloudd" AND message contains[cd] "iCloud.com.example.CloudKitCoreDataDemo""#
        public static let apsd = #"process = "apsd" AND message contains[cd] "CoreDataCloudKitDemo""#
        public static let dasd = """
            process = "dasd" AND message contains[cd] "com.apple.coredata.cloudkit.activity"
                             AND message contains[cd] "CEF8F02F-81DC-48E6-B293-6FCD357EF80F"
            """
        public static let combined = """
            (\(demo))
            or (\(cloudd))
            OR (\(apsd))
            or (\(dasd))
            """
    }
}
