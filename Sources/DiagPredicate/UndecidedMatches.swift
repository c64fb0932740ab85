import Synchronization

/// The records whose `MATCHES` ICU gave up on, counted per pattern for the whole process: a
/// command reports them on stderr and exits 65 rather than let "no match" stand for "unknown"
/// (issue 13, item 5). Only patterns left to ICU (`RegexMatcher`) can land here.
public enum UndecidedMatches {
    public struct Entry: Sendable, Equatable {
        public var pattern: String
        /// ICU's reason, as its error name (U_REGEX_TIME_OUT, U_REGEX_STACK_OVERFLOW).
        public var reason: String
        public var records: Int
    }

    private static let entries = Mutex<[Entry]>([])

    static func record(pattern: String, reason: String) {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.pattern == pattern && $0.reason == reason }) {
                entries[index].records += 1
            } else {
                entries.append(Entry(pattern: pattern, reason: reason, records: 1))
            }
        }
    }

    /// What was counted so far, in the order first met; emptied.
    public static func take() -> [Entry] {
        entries.withLock { entries in
            defer { entries = [] }
            return entries
        }
    }

    /// The message a command prints for `entries`, one line per pattern.
    public static func message(_ entries: [Entry]) -> String {
        entries.map { entry in
            let records = entry.records == 1 ? "1 record" : "\(entry.records) records"
            return "MATCHES \"\(entry.pattern)\": ICU gave up (\(entry.reason)) on \(records): their answer is unknown (the output took them as not matching); the pattern runs on ICU because of a construct the linear engine does not cover (backreference, lookaround, atomic group, possessive quantifier, \\p{…}, inline flag…): rewrite it without one to run it in linear time"
        }.joined(separator: "\n")
    }
}
