/// A lexical token of the predicate language, with its byte range in the source.
struct Token: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A key name that is not a reserved word (`process`).
        case identifier(String)
        /// `#name`: a key name even if it is a reserved word (`#size`).
        case escapedIdentifier(String)
        case keyword(Keyword)
        case string(String)
        case integer(Int64)
        case double(Double)
        /// `$NAME`.
        case variable(String)
        case comparison(ComparisonOperator)
        /// `&&`, `||`, `!`: the symbolic forms of AND, OR, NOT.
        case andSymbol, orSymbol, notSymbol
        case leftParenthesis, rightParenthesis, leftBrace, rightBrace, leftBracket, rightBracket
        case comma, dot
        case end
    }

    var kind: Kind
    /// Byte offsets of the token in the UTF-8 source: `start..<end`.
    var start: Int
    var end: Int
}

/// Apple's reserved words (case-insensitive), plus the two UTI operators.
enum Keyword: String, Sendable, CaseIterable {
    case and = "AND", or = "OR", not = "NOT", `in` = "IN"
    case all = "ALL", any = "ANY", some = "SOME", none = "NONE"
    case like = "LIKE", caseInsensitive = "CASEINSENSITIVE", ci = "CI", matches = "MATCHES"
    case contains = "CONTAINS", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", between = "BETWEEN"
    case null = "NULL", `nil` = "NIL", `self` = "SELF"
    case `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO"
    case first = "FIRST", last = "LAST", size = "SIZE", anyKey = "ANYKEY"
    case subquery = "SUBQUERY", fetch = "FETCH", cast = "CAST"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case utiConformsTo = "UTI-CONFORMS-TO", utiEquals = "UTI-EQUALS"

    private static let byUppercasedName: [String: Keyword] =
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The keyword spelled by `word` in any case, if it is one.
    init?(word: String) {
        guard let keyword = Keyword.byUppercasedName[word.uppercased()] else { return nil }
        self = keyword
    }

    static func isReserved(_ word: String) -> Bool { Keyword(word: word) != nil }
}
