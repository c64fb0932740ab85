import DiagModel
import Testing

@testable import DiagPredicate

/// 2022-06-04 09:40:00 UTC, the WWDC22 session's window start.
let wwdcStart: Int64 = 1_654_335_600 * 1_000_000_000

func record(
    _ message: String = "hello world",
    process: String? = "apsd",
    processID: Int64? = 120,
    sender: String? = "CoreData",
    subsystem: String? = "com.apple.apsd",
    category: String? = "connection",
    type: MessageType = .default,
    eventType: EventType = .logEvent,
    timestamp: Int64 = wwdcStart,
    threadID: Int64? = 4242,
    metadata: [String: JSONValue]? = nil,
    signpostType: String? = nil
) -> LogRecord {
    LogRecord(
        timestamp: timestamp, messageType: type, eventType: eventType, process: process, processID: processID,
        processImagePath: process.map { "/usr/libexec/" + $0 }, userID: 501, sender: sender,
        subsystem: subsystem, category: category, threadID: threadID, activityIdentifier: 77,
        eventMessage: message, formatString: "%s", signpostType: signpostType, metadata: metadata
    )
}

/// Parses `text` and evaluates it on `record`; a parse failure is recorded as a test issue.
func matches(_ text: String, _ record: LogRecord, variables: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    do {
        return try Predicate.parse(text, variables: variables).evaluate(record)
    } catch {
        Issue.record("\(text) failed to parse: \(error)", sourceLocation: sourceLocation)
        return false
    }
}

/// The error parsing `text` gives; nil (and an issue) if it parses.
func parseError(_ text: String, variables: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) -> PredicateError? {
    do {
        let predicate = try Predicate.parse(text, variables: variables)
        Issue.record("\(text) parsed as \(predicate) but should fail", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}
