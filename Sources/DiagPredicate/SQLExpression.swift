import DiagModel

/// The SQL part of a plan as a tree, so that each dialect writes it in its own spelling
/// (`SQLDialect`: SQLite for the chunks, PostgreSQL for the fleet) and a predicate feature is
/// planned once (issue 14, item 4).
///
/// It holds only what the planner writes: columns of `records` (docs/ARCHITECTURE.md's chunk
/// schema; the fleet's table has the same names), bound values (never text in the SQL),
/// comparisons, NULL tests, IN lists, AND/OR chains, `NOT` with NULL read as false, ASCII
/// `lower`, and `metadata.<key>` read as JSON. Every boolean node is built so that NULL only
/// ever stands for "false" (PredicatePlanner).
///
/// Only the cases that hold an expression are `indirect`: a leaf is stored inline, without a box
/// (a boxed case's pointer carries the case in its spare bits, which LeakSanitizer in the
/// fuzzer's build cannot follow from a global).
public enum SQLExpression: Sendable, Hashable {
    /// A column of `records`.
    case column(String)
    /// A value bound to a placeholder.
    case value(SQLValue)
    /// True or false (SQLite's 1 and 0).
    case truth(Bool)
    /// `left op right`.
    indirect case comparison(SQLExpression, SQLComparisonOperator, SQLExpression)
    /// `operand IS NULL`, or `IS NOT NULL` when negated.
    indirect case isNull(SQLExpression, negated: Bool)
    /// `operand IN (…)`, or `NOT IN (…)` when negated; the list is never empty.
    indirect case inList(SQLExpression, [SQLExpression], negated: Bool)
    /// ASCII-only lowercasing, the same in both dialects over byte-ordered text (TextSymbolSQL).
    indirect case lower(SQLExpression)
    /// `NOT coalesce(operand, false)`: a NULL operand (a missing field) negates to true, as the
    /// evaluator's `NOT` of a false comparison does.
    indirect case notCoalesced(SQLExpression)
    /// Operands joined by one connective. `parenthesized` wraps each operand, as SQLShape's
    /// chains are written; without it the operands are comparisons that need no parentheses.
    case chain(SQLConnective, [SQLExpression], parenthesized: Bool)
    /// `(operand)`.
    indirect case group(SQLExpression)
    /// Whether `metadata`'s value at `key` (a JSON object's member) is of `type`.
    case metadataType(key: String, MetadataJSONType)
    /// `metadata`'s scalar at `key` compared with a value (the caller tests its type first).
    case metadataComparison(key: String, SQLComparisonOperator, SQLValue)
}

public enum SQLComparisonOperator: Sendable, Hashable {
    case equal, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual
    /// Null-safe equality: NULL is NULL (SQLite's `IS`).
    case isSame
    /// Null-safe inequality: NULL is not a value (SQLite's `IS NOT`).
    case isNotSame
}

public enum SQLConnective: Sendable, Hashable {
    case and, or
}

/// The JSON types a metadata test asks about.
public enum MetadataJSONType: Sendable, Hashable {
    /// No metadata member of that name.
    case absent
    /// JSON `null`.
    case null
    /// A JSON string.
    case text
    /// A JSON number or boolean (the evaluator reads `true` as 1).
    case number
}

extension SQLExpression {
    /// The deepest parenthesis nesting of the SQL text (SQLShape keeps it under SQLite's parser
    /// limit): each function call, IN list and parenthesized operand opens one. The same count
    /// in both dialects.
    public var nesting: Int {
        switch self {
        case .column, .value, .truth, .metadataComparison: 0
        case .metadataType: 1
        case .comparison(let left, _, let right): max(left.nesting, right.nesting)
        case .isNull(let operand, _): operand.nesting
        case .inList(let operand, let list, _): max(operand.nesting, 1 + (list.map(\.nesting).max() ?? 0))
        case .lower(let operand), .notCoalesced(let operand), .group(let operand): 1 + operand.nesting
        case .chain(_, let operands, let parenthesized): (parenthesized ? 1 : 0) + (operands.map(\.nesting).max() ?? 0)
        }
    }

    /// How many values the SQL text binds (SQLShape's budget). `metadata.<key>` binds its path
    /// once per use.
    public var bindingCount: Int {
        switch self {
        case .column, .truth: 0
        case .value: 1
        case .metadataType: 1
        case .metadataComparison: 2
        case .comparison(let left, _, let right): left.bindingCount + right.bindingCount
        case .isNull(let operand, _), .lower(let operand), .notCoalesced(let operand), .group(let operand): operand.bindingCount
        case .inList(let operand, let list, _): list.reduce(operand.bindingCount) { $0 + $1.bindingCount }
        case .chain(_, let operands, _): operands.reduce(0) { $0 + $1.bindingCount }
        }
    }
}
