import DiagModel
import DiagPredicate
import Foundation

/// Values bound to `$1`, `$2`, … of one statement, sent as text and cast in the SQL.
public struct ParameterList: Sendable, Equatable {
    public private(set) var values: [String?] = []

    public init() {}

    /// Adds `value` and returns its placeholder, cast to `type` (`$3::bigint`).
    mutating func add(_ value: String, as type: String) -> String {
        values.append(value)
        return "$\(values.count)::\(type)"
    }
}

/// PostgreSQL's spelling of a plan's SQL (`SQLExpression`) over the fleet's `records`, with the
/// same truth value on every row as the chunks' SQLite text (NULL read as false):
///
/// - a value is `$n` with a cast from its type: integers `bigint`, doubles `numeric` written
///   exactly (so `bigint` against a double compares exactly, as SQLite and Swift do), text
///   `text` (the columns are `COLLATE "C"`: byte order, as SQLite's BINARY);
/// - the null-safe comparisons are `IS NOT DISTINCT FROM` / `IS DISTINCT FROM`;
/// - truth values are `TRUE` and `FALSE`; SQLite's `instr` is `strpos`;
/// - `metadata.<key>` is read with `json_typeof` and `->>` (a text value only).
///
/// What has no exact counterpart here (a number in metadata, which SQLite's `json_extract` reads
/// with its own rules, a text value holding U+0000, a NaN) makes the rendering nil, and the
/// caller checks the whole predicate in Swift instead.
struct PostgresDialect: SQLDialect {
    var parameters: ParameterList

    /// The columns a plan may name, all present in the fleet's `records`.
    static let columns: Set<String> = [
        "timestamp", "receiptTime", "messageType", "eventType", "process", "processID", "processImagePath", "userID",
        "sender", "senderImagePath", "subsystem", "category", "threadID", "activityIdentifier",
        "parentActivityIdentifier", "traceID", "eventMessage", "formatString", "signpostID", "signpostName", "signpostType",
        "metadata", "signpostScope",
    ]

    mutating func placeholder(_ value: SQLValue) -> String? {
        switch value {
        case .null:
            return nil
        case .int(let number):
            return parameters.add(String(number), as: "bigint")
        case .double(let number):
            guard let text = Self.exactDecimal(number) else { return nil }
            return parameters.add(text, as: "numeric")
        case .text(let text):
            guard !text.utf8.contains(0) else { return nil }
            return parameters.add(text, as: "text")
        }
    }

    func column(_ name: String) -> String? {
        Self.columns.contains(name) ? "\"\(name)\"" : nil
    }

    func truth(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    func containsText(_ haystack: String, _ needle: String) -> String {
        "strpos(\(haystack), \(needle)) > 0"
    }

    func comparisonOperator(_ op: SQLComparisonOperator) -> String {
        switch op {
        case .equal: "="
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        case .isSame: "IS NOT DISTINCT FROM"
        case .isNotSame: "IS DISTINCT FROM"
        }
    }

    /// `json_typeof` names a JSON string `string`, and a missing member NULL.
    mutating func metadataType(key: String, _ type: MetadataJSONType) -> String? {
        let name: String
        switch type {
        case .absent: name = "IS NULL"
        case .null: name = "= 'null'"
        case .text: name = "= 'string'"
        // SQLite's json_extract reads booleans as 1 and 0 and compares numbers as REAL: no exact counterpart.
        case .number: return nil
        }
        guard let member = placeholder(.text(key)) else { return nil }
        return #"json_typeof("metadata"::json -> "# + member + ") " + name
    }

    mutating func metadataComparison(key: String, _ op: SQLComparisonOperator, _ value: SQLValue) -> String? {
        guard case .text = value, let member = placeholder(.text(key)) else { return nil }
        let operand = #"("metadata"::json ->> "# + member + #") COLLATE "C""#
        guard let bound = placeholder(value) else { return nil }
        return operand + " " + comparisonOperator(op) + " " + bound
    }

    /// A decimal that `numeric` reads as a value ordered against every integer exactly as the
    /// double is: integral doubles exactly, others by their shortest round-trip form (which lies
    /// strictly between the same two integers). NaN has no such form.
    static func exactDecimal(_ number: Double) -> String? {
        if number.isNaN { return nil }
        if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
        if number == number.rounded(.towardZero) {
            if let integer = Int64(exactly: number) { return String(integer) }
            return String(format: "%.0f", number)
        }
        return "\(number)"
    }
}
