/// Predicates of thousands of terms and of the deepest nesting the parser accepts (issue 13,
/// item 8), written as a user or a script would write them, over the fields DiagGenerator fills.
///
/// `threadIDs` are values present in the records, so that each predicate selects some records
/// but not all of them.
public enum LargePredicates {
    /// The term counts of the issue: one under SQLite's expression depth of 1000, and far past it.
    public static let termCounts = [999, 5_000, 20_000]

    /// `a OR b OR …` of `count` terms that SQL can decide, of several kinds: equality lists on
    /// five columns, ranges, AND groups.
    public static func disjunction(_ count: Int, threadIDs: [Int64]) -> String {
        (0..<count).map { index -> String in
            switch index % 8 {
            case 0: "threadID == \(threadIDs[(index / 8) % threadIDs.count])"
            case 1: "process == \"process\(index)\""
            case 2: "subsystem == \"com.example.absent\(index)\""
            case 3: "processID >= \(2_000_000 + index)"
            case 4: "processID == \(1_000_000 + index)"
            case 5: "category == \"none\(index)\""
            case 6: "threadID == \(-Int64(index))"
            default: "(process == \"sync-core\" AND threadID == \(threadIDs[(index / 8 + 1) % threadIDs.count]))"
            }
        }.joined(separator: " OR ")
    }

    /// `a AND b AND …` of `count` terms, each true for most records.
    public static func conjunction(_ count: Int, threadIDs: [Int64]) -> String {
        (0..<count).map { index -> String in
            switch index % 4 {
            case 0: "threadID != \(threadIDs[(index / 4) % threadIDs.count])"
            case 1: "process != \"process\(index)\""
            case 2: "NOT eventMessage CONTAINS \"absent text \(index)\""
            default: "processID != \(1_000_000 + index)"
            }
        }.joined(separator: " AND ")
    }

    /// `threadID IN {…}` with `count` elements.
    public static func aggregate(_ count: Int, threadIDs: [Int64]) -> String {
        "threadID IN {" + (0..<count).map { index in
            String(index % 2 == 0 ? threadIDs[(index / 2) % threadIDs.count] : -Int64(index))
        }.joined(separator: ", ") + "}"
    }

    /// `NOT NOT … comparison` with `depth` negations (an odd count selects the other records).
    public static func negations(_ depth: Int) -> String {
        String(repeating: "NOT ", count: depth) + "process == \"transport\""
    }

    /// `(a OR (b AND (c OR …)))`, `depth` parentheses deep, alternating OR and AND.
    public static func nestedGroups(_ depth: Int, threadIDs: [Int64]) -> String {
        var text = "process == \"scheduler\""
        for level in (0..<depth).reversed() {
            // One thread of the records, the other levels' values absent: some records, not all.
            let term = level % 2 == 1 ? "process != \"absent\(level)\"" : level == 0 ? "threadID == \(threadIDs[0])" : "threadID == \(-level)"
            text = "(\(term) \(level % 2 == 0 ? "OR" : "AND") \(text))"
        }
        return text
    }

    /// A random predicate up to `depth` levels deep, over the same fields: a spine of NOT and
    /// of AND/OR groups whose other operands are comparisons (so its size grows with its depth).
    public static func random(_ picker: inout SeededPicker, depth: Int, threadIDs: [Int64]) -> String {
        func comparison() -> String {
            picker.pick([
                "threadID == \(picker.pick(threadIDs))", "process == \"\(picker.pick(["transport", "scheduler", "sync-core", "notifier"]))\"",
                "processID > \(picker.int(30_000))", "eventMessage CONTAINS[c] \"\(picker.pick(["push", "upload", "retry", "zz"]))\"",
                "messageType == \(picker.pick(["info", "debug", "default", "error"]))", "category IN {\"push\", \"upload\", \"nothing\"}",
                "subsystem BEGINSWITH \"com.example.sync.\"", "eventMessage MATCHES \".*[0-9]{3} bytes.*\"", "TRUEPREDICATE", "FALSEPREDICATE",
            ])
        }
        if depth == 0 || picker.int(12) == 0 { return comparison() }
        if picker.int(3) == 0 { return "NOT (" + random(&picker, depth: depth - 1, threadIDs: threadIDs) + ")" }
        var operands = (0..<(1 + picker.int(3))).map { _ in comparison() }
        operands.insert("(" + random(&picker, depth: depth - 1, threadIDs: threadIDs) + ")", at: picker.int(operands.count + 1))
        return operands.joined(separator: picker.int(2) == 0 ? " AND " : " OR ")
    }
}
