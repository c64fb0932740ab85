import DiagModel

/// How one SQL dialect spells the leaves of an `SQLExpression` and collects its bound values;
/// `SQLExpression.rendered(in:)` writes the structure (chains, parentheses, lists), the same
/// for every dialect. A dialect that has no exact counterpart for a part answers nil, and the
/// whole expression is then not given to that database (its caller checks in Swift instead).
public protocol SQLDialect {
    /// The placeholder for `value`, which the dialect records in its list of bound values.
    mutating func placeholder(_ value: SQLValue) -> String?
    /// The column's name as the dialect writes it; nil for a column its table lacks.
    func column(_ name: String) -> String?
    func truth(_ value: Bool) -> String
    func comparisonOperator(_ op: SQLComparisonOperator) -> String
    /// The test that the text `haystack` holds `needle`, comparing bytes (code points) exactly:
    /// true, false, or NULL when either is NULL (as a position function's `> 0` is).
    func containsText(_ haystack: String, _ needle: String) -> String
    /// `metadata`'s value at `key` is of `type`.
    mutating func metadataType(key: String, _ type: MetadataJSONType) -> String?
    /// `metadata`'s scalar at `key` compared with `value`.
    mutating func metadataComparison(key: String, _ op: SQLComparisonOperator, _ value: SQLValue) -> String?
}

extension SQLExpression {
    /// The SQL text in `dialect`'s spelling, its values added to the dialect's list in
    /// placeholder order; nil when the dialect cannot say some part exactly (the dialect's
    /// list is then left as it was).
    public func rendered<Dialect: SQLDialect>(in dialect: inout Dialect) -> String? {
        var attempt = dialect
        var text = ""
        guard write(into: &text, dialect: &attempt) else { return nil }
        dialect = attempt
        return text
    }

    private func write<Dialect: SQLDialect>(into text: inout String, dialect: inout Dialect) -> Bool {
        switch self {
        case .column(let name):
            guard let column = dialect.column(name) else { return false }
            text += column
        case .value(let value):
            guard let placeholder = dialect.placeholder(value) else { return false }
            text += placeholder
        case .truth(let value):
            text += dialect.truth(value)
        case .comparison(let left, let op, let right):
            guard left.write(into: &text, dialect: &dialect) else { return false }
            text += " " + dialect.comparisonOperator(op) + " "
            return right.write(into: &text, dialect: &dialect)
        case .isNull(let operand, let negated):
            guard operand.write(into: &text, dialect: &dialect) else { return false }
            text += negated ? " IS NOT NULL" : " IS NULL"
        case .inList(let operand, let list, let negated):
            guard operand.write(into: &text, dialect: &dialect) else { return false }
            text += negated ? " NOT IN (" : " IN ("
            for (position, element) in list.enumerated() {
                if position > 0 { text += ", " }
                guard element.write(into: &text, dialect: &dialect) else { return false }
            }
            text += ")"
        case .lower(let operand):
            text += "lower("
            guard operand.write(into: &text, dialect: &dialect) else { return false }
            text += ")"
        case .notCoalesced(let operand):
            text += "NOT coalesce("
            guard operand.write(into: &text, dialect: &dialect) else { return false }
            text += ", " + dialect.truth(false) + ")"
        case .chain(let connective, let operands, let parenthesized):
            let separator = connective == .and ? " AND " : " OR "
            for (position, operand) in operands.enumerated() {
                if position > 0 { text += separator }
                if parenthesized { text += "(" }
                guard operand.write(into: &text, dialect: &dialect) else { return false }
                if parenthesized { text += ")" }
            }
        case .group(let operand):
            text += "("
            guard operand.write(into: &text, dialect: &dialect) else { return false }
            text += ")"
        case .containsText(let haystack, let needle):
            var haystackText = ""
            var needleText = ""
            guard haystack.write(into: &haystackText, dialect: &dialect),
                  needle.write(into: &needleText, dialect: &dialect) else { return false }
            text += dialect.containsText(haystackText, needleText)
        case .metadataType(let key, let type):
            guard let test = dialect.metadataType(key: key, type) else { return false }
            text += test
        case .metadataComparison(let key, let op, let value):
            guard let test = dialect.metadataComparison(key: key, op, value) else { return false }
            text += test
        }
        return true
    }
}

/// The chunks' dialect (docs/ARCHITECTURE.md's planner contract): `?` placeholders, 1 and 0 for
/// truth values, `IS`/`IS NOT` as null-safe comparisons, SQLite's JSON functions over `metadata`.
public struct SQLiteDialect: SQLDialect {
    /// The values of the placeholders written so far, in order.
    public private(set) var bindings: [SQLValue] = []

    public init() {}

    public mutating func placeholder(_ value: SQLValue) -> String? {
        bindings.append(value)
        return "?"
    }

    public func column(_ name: String) -> String? { name }

    public func truth(_ value: Bool) -> String { value ? "1" : "0" }

    /// `diag_contains`, registered on every connection `Database` opens (`ContainsFunction`):
    /// `memchr` for the needle's first byte instead of `instr`, which compares the needle at
    /// every character with a call of `memcmp` (a scan of 10M messages for two literal runs of a
    /// `MATCHES`).
    public func containsText(_ haystack: String, _ needle: String) -> String {
        "diag_contains(\(haystack), \(needle))"
    }

    public func comparisonOperator(_ op: SQLComparisonOperator) -> String {
        switch op {
        case .equal: "="
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        case .isSame: "IS"
        case .isNotSame: "IS NOT"
        }
    }

    /// SQLite's `json_type` names a missing member NULL, and a boolean `true` or `false`.
    public mutating func metadataType(key: String, _ type: MetadataJSONType) -> String? {
        let test = "json_type(metadata, " + placeholder(.text("$." + key))! + ")"
        switch type {
        case .absent: return test + " IS NULL"
        case .null: return test + " = 'null'"
        case .text: return test + " = 'text'"
        case .number: return test + " IN ('integer', 'real', 'true', 'false')"
        }
    }

    /// `json_extract` gives a JSON boolean as 1 or 0, as the evaluator reads it.
    public mutating func metadataComparison(key: String, _ op: SQLComparisonOperator, _ value: SQLValue) -> String? {
        let path = placeholder(.text("$." + key))!
        return "json_extract(metadata, \(path)) \(comparisonOperator(op)) " + placeholder(value)!
    }
}

extension SQLExpression {
    /// The SQLite text and its bindings.
    public var sqlite: (sql: String, bindings: [SQLValue]) {
        var dialect = SQLiteDialect()
        let sql = rendered(in: &dialect)!
        return (sql, dialect.bindings)
    }
}
