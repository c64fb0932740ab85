/// The parsed predicate: one node per concept, as in swift-foundation's `Predicate`.
indirect enum PredicateNode: Sendable {
    case constant(Bool)
    case not(PredicateNode)
    case and([PredicateNode])
    case or([PredicateNode])
    case comparison(Comparison)
}

enum ComparisonOperator: Sendable, Hashable {
    case equal, notEqual, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual
    case beginsWith, endsWith, contains, like, matches, `in`, between

    /// The canonical spelling used by `description`.
    var spelling: String {
        switch self {
        case .equal: "=="
        case .notEqual: "!="
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .contains: "CONTAINS"
        case .like: "LIKE"
        case .matches: "MATCHES"
        case .in: "IN"
        case .between: "BETWEEN"
        }
    }
}

enum Qualifier: String, Sendable, Hashable {
    case anyElement = "ANY", allElements = "ALL", noElement = "NONE"
}

/// The `[c]`, `[d]`, `[n]` letters of a comparison (§5.3).
struct ComparisonOptions: Sendable, Hashable {
    var caseInsensitive = false
    var diacriticInsensitive = false
    var normalized = false

    var isEmpty: Bool { !caseInsensitive && !diacriticInsensitive && !normalized }

    var spelling: String {
        isEmpty ? "" : "[" + (caseInsensitive ? "c" : "") + (diacriticInsensitive ? "d" : "") + (normalized ? "n" : "") + "]"
    }
}

/// One side of a comparison.
enum Operand: Sendable {
    /// A key, with the spelling the user wrote (`message`, `#size`) for `description`.
    case field(Field, spelling: String)
    case literal(Literal)
    case aggregate([Operand])
    /// `SELF`.
    case record

    var field: Field? {
        if case .field(let field, _) = self { return field }
        return nil
    }

    var literal: Literal? {
        if case .literal(let literal) = self { return literal }
        return nil
    }
}

/// A literal as written (`source`, for `description`) and as compared (`value`): a date parsed,
/// a symbol looked up, a string folded for the comparison's options.
struct Literal: Sendable {
    var source: Value
    var value: Value
}

/// `[qualifier] left operator[options] right`, with its pattern compiled once.
///
/// A class, so that evaluating a node borrows it instead of copying operands for every record.
final class Comparison: Sendable {
    let qualifier: Qualifier?
    let left: Operand
    let op: ComparisonOperator
    let options: ComparisonOptions
    let right: Operand
    /// The compiled right side of `LIKE`/`MATCHES` when it is a literal.
    let pattern: Pattern?
    /// `field op "literal"` for string operators: the needle (folded when options ask), matched
    /// in place on ASCII text.
    let stringNeedle: (field: Field, needle: String)?

    enum Pattern: Sendable {
        case like(LikePattern)
        case regex(RegexMatcher)
    }

    init(qualifier: Qualifier?, left: Operand, op: ComparisonOperator, options: ComparisonOptions, right: Operand, pattern: Pattern? = nil) {
        self.qualifier = qualifier
        self.left = left
        self.op = op
        self.options = options
        self.right = right
        self.pattern = pattern
        if qualifier == nil, case .field(let field, _) = left, field.type == .string,
           case .string(let needle)? = right.literal?.value,
           [.equal, .notEqual, .contains, .beginsWith, .endsWith].contains(op)
        {
            stringNeedle = (field, needle)
        } else {
            stringNeedle = nil
        }
    }

    /// The folding applied to string operands: `MATCHES` folds diacritics only (case is the
    /// regex engine's flag); `[n]` supersedes `[c]` and `[d]`.
    var folding: Folding { Self.folding(op: op, options: options) }

    static func folding(op: ComparisonOperator, options: ComparisonOptions) -> Folding {
        if options.normalized { return Folding() }
        return Folding(
            caseInsensitive: op == .matches ? false : options.caseInsensitive,
            diacriticInsensitive: options.diacriticInsensitive
        )
    }

    var regexCaseInsensitive: Bool { options.caseInsensitive && !options.normalized }
}
