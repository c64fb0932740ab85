/// Recursive-descent parser of the log profile (PREDICATES.md §3): OR < AND < NOT < comparison.
///
/// Every `(`, `NOT`/`!` and `{` counts toward a nesting limit, so hostile input such as ten
/// thousand `(` is a clean error, never a stack overflow; flat chains are loops, not recursion.
struct PredicateParser {
    static let maximumDepth = 256

    var lexer: PredicateLexer
    let variables: [String: String]
    let dateZone: DateLiteralZone
    private var depth = 0
    /// Levels the caller's own text wraps around the user's predicate (`(P) AND c`), allowed
    /// beyond `maximumDepth` so that a predicate `predicate check` accepts runs wrapped too.
    private let enclosingLevels: Int

    init(_ text: String, variables: [String: String], dateZone: DateLiteralZone = .utc, enclosingLevels: Int = 0) {
        lexer = PredicateLexer(text)
        self.variables = variables
        self.dateZone = dateZone
        self.enclosingLevels = max(0, min(enclosingLevels, 16))
    }

    func error(_ kind: PredicateError.Kind, _ message: String, at offset: Int) -> PredicateError {
        lexer.error(kind, message, at: offset)
    }

    mutating func parse() throws(PredicateError) -> PredicateNode {
        let first = try lexer.peek()
        if first.kind == .end {
            throw error(.syntax, "empty predicate: write a comparison such as process == \"apsd\", or TRUEPREDICATE", at: first.start)
        }
        let node = try parseOr()
        let next = try lexer.peek()
        guard next.kind == .end else {
            if next.kind == .rightParenthesis {
                throw error(.syntax, "unbalanced ')': there is no '(' for it to close", at: next.start)
            }
            throw error(.syntax, "expected AND, OR or the end of the predicate, found \(describe(next))", at: next.start)
        }
        return node
    }

    private mutating func enter(at offset: Int, _ construct: String) throws(PredicateError) {
        depth += 1
        if depth > Self.maximumDepth + enclosingLevels {
            throw error(.nestingTooDeep, "predicate nested too deeply: more than \(Self.maximumDepth) levels of \(construct)", at: offset)
        }
    }

    private mutating func parseOr() throws(PredicateError) -> PredicateNode {
        var terms = [try parseAnd()]
        while try isConnective(.or) {
            _ = try lexer.next()
            terms.append(try parseAnd())
        }
        return terms.count == 1 ? terms[0] : .or(terms.flatMap { if case .or(let inner) = $0 { inner } else { [$0] } })
    }

    private mutating func parseAnd() throws(PredicateError) -> PredicateNode {
        var terms = [try parseNot()]
        while try isConnective(.and) {
            _ = try lexer.next()
            terms.append(try parseNot())
        }
        return terms.count == 1 ? terms[0] : .and(terms.flatMap { if case .and(let inner) = $0 { inner } else { [$0] } })
    }

    private mutating func isConnective(_ keyword: Keyword) throws(PredicateError) -> Bool {
        let token = try lexer.peek()
        switch token.kind {
        case .keyword(keyword): return true
        case .andSymbol: return keyword == .and
        case .orSymbol: return keyword == .or
        default: return false
        }
    }

    private mutating func parseNot() throws(PredicateError) -> PredicateNode {
        var negations = 0
        while true {
            let token = try lexer.peek()
            guard token.kind == .keyword(.not) || token.kind == .notSymbol else { break }
            _ = try lexer.next()
            try enter(at: token.start, "NOT")
            negations += 1
            let following = try lexer.peek()
            if following.kind == .end {
                throw error(.syntax, "expected a comparison or '(' after \(describe(token))", at: following.start)
            }
        }
        var node = try parsePrimary()
        for _ in 0..<negations { node = .not(node) }
        depth -= negations
        return node
    }

    private mutating func parsePrimary() throws(PredicateError) -> PredicateNode {
        let token = try lexer.peek()
        switch token.kind {
        case .leftParenthesis:
            _ = try lexer.next()
            try enter(at: token.start, "parentheses")
            if try lexer.peek().kind == .rightParenthesis {
                throw error(.syntax, "empty parentheses: a '(' must hold a predicate", at: try lexer.peek().start)
            }
            let node = try parseOr()
            let closing = try lexer.peek()
            guard closing.kind == .rightParenthesis else {
                let column = error(.syntax, "", at: token.start).column
                throw error(.syntax, "expected ')' to close the '(' at column \(column), found \(describe(closing))", at: closing.start)
            }
            _ = try lexer.next()
            depth -= 1
            if case .comparison = try lexer.peek().kind {
                throw error(.unsupportedConstruct, "'(' always opens a predicate group: parenthesised expressions such as (process) == \"x\" are not supported", at: token.start)
            }
            return node
        case .keyword(.truePredicate):
            _ = try lexer.next()
            return .constant(true)
        case .keyword(.falsePredicate):
            _ = try lexer.next()
            return .constant(false)
        case .end:
            throw error(.syntax, "expected a comparison, found the end of the predicate", at: token.start)
        case .rightParenthesis:
            throw error(.syntax, "expected a comparison before ')'", at: token.start)
        case .andSymbol, .orSymbol, .keyword(.and), .keyword(.or):
            throw error(.syntax, "expected a comparison before \(describe(token))", at: token.start)
        default:
            return .comparison(try parseComparison())
        }
    }

    /// A token as an error message names it.
    func describe(_ token: Token) -> String {
        switch token.kind {
        case .end: return "the end of the predicate"
        case .string: return "a string"
        case .integer, .double: return "a number"
        default:
            let text = String(decoding: lexer.bytes[token.start..<token.end], as: UTF8.self)
            return "'\(text)'"
        }
    }

    mutating func enterAggregate(at offset: Int) throws(PredicateError) {
        try enter(at: offset, "'{'")
    }

    mutating func leaveAggregate() { depth -= 1 }
}
