/// Comparisons: `[qualifier] operand operator[options] operand` (PREDICATES.md §3, §5.3, §7).
extension PredicateParser {
    /// An operand before its words are resolved: whether `error` is a symbol or a key depends on
    /// the other side (§9.3).
    indirect enum RawOperand {
        case word(String, Token)
        case key(String, Token)
        case metadata(String, Token)
        case literal(Value, Token)
        case aggregate([RawOperand], Token)
        case record(Token)

        var token: Token {
            switch self {
            case .word(_, let token), .key(_, let token), .metadata(_, let token), .literal(_, let token),
                 .aggregate(_, let token), .record(let token): token
            }
        }
    }

    mutating func parseComparison() throws(PredicateError) -> Comparison {
        var qualifier: Qualifier?
        let first = try lexer.peek()
        switch first.kind {
        case .keyword(.any), .keyword(.some): qualifier = .anyElement
        case .keyword(.all): qualifier = .allElements
        case .keyword(.none): qualifier = .noElement
        default: break
        }
        if qualifier != nil {
            _ = try lexer.next()
            let following = try lexer.peek()
            switch following.kind {
            case .end, .comparison, .andSymbol, .orSymbol, .rightParenthesis, .keyword(.and), .keyword(.or):
                throw error(.syntax, "\(describe(first)) must be followed by a comparison (ANY process == \"apsd\")", at: first.start)
            default: break
            }
        }
        let left = try parseOperand(after: nil)
        let operatorToken = try lexer.next()
        let op = try comparisonOperator(operatorToken, after: left)
        let options = try parseOptions(after: operatorToken)
        let right = try parseOperand(after: operatorToken)
        let following = try lexer.peek()
        if case .comparison = following.kind {
            throw error(.syntax, "comparisons cannot be chained: write a == b AND b == c", at: following.start)
        }
        if case .keyword(let keyword) = following.kind, Self.operatorKeyword(keyword) != nil {
            throw error(.syntax, "comparisons cannot be chained: write a == b AND b == c", at: following.start)
        }
        return try resolve(qualifier: qualifier, left: left, op: op, options: options, right: right, operatorToken: operatorToken)
    }

    /// The operator a keyword names, if any. A switch, not a `[Keyword: ComparisonOperator]`:
    /// that dictionary's metadata, made at run time, looked `Keyword: Hashable` up through every
    /// conformance record of the static binary (348,000 instructions of each `diag` run with a
    /// predicate, callgrind).
    static func operatorKeyword(_ keyword: Keyword) -> ComparisonOperator? {
        switch keyword {
        case .beginsWith: .beginsWith
        case .endsWith: .endsWith
        case .contains: .contains
        case .like: .like
        case .matches: .matches
        case .in: .in
        case .between: .between
        default: nil
        }
    }

    private mutating func comparisonOperator(_ token: Token, after left: RawOperand) throws(PredicateError) -> ComparisonOperator {
        switch token.kind {
        case .comparison(let op): return op
        case .keyword(let keyword):
            if let op = Self.operatorKeyword(keyword) { return op }
            switch keyword {
            case .not:
                throw error(.syntax, "NOT IN is not an operator: write NOT (x IN {…})", at: token.start)
            case .utiConformsTo, .utiEquals:
                throw error(.unsupportedConstruct, "\(keyword.rawValue) is not part of the log predicate language", at: token.start)
            case .and, .or:
                throw error(.syntax, "\(describe(left.token)) alone is not a predicate: compare it (\(describe(left.token)) == …), or use TRUEPREDICATE", at: left.token.start)
            default: break
            }
        case .rightParenthesis:
            if case .comparison = try lexer.peek().kind {
                throw error(.unsupportedConstruct, "'(' always opens a predicate group: parenthesised expressions such as (process) == \"x\" are not supported", at: token.start)
            }
            throw error(.syntax, "\(describe(left.token)) alone is not a predicate: compare it with ==, !=, <, >, CONTAINS, BEGINSWITH, LIKE, MATCHES, IN, …", at: left.token.start)
        case .end, .andSymbol, .orSymbol:
            throw error(.syntax, "\(describe(left.token)) alone is not a predicate: compare it with ==, !=, <, >, CONTAINS, BEGINSWITH, LIKE, MATCHES, IN, …", at: left.token.start)
        default: break
        }
        throw error(.syntax, "expected an operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES, IN, BETWEEN) after \(describe(left.token)), found \(describe(token))", at: token.start)
    }

    /// `[c]`, `[d]`, `[n]` in any order and case, each once, no blanks inside (§5.3).
    private mutating func parseOptions(after operatorToken: Token) throws(PredicateError) -> ComparisonOptions {
        let open = try lexer.peek()
        guard open.kind == .leftBracket else { return ComparisonOptions() }
        _ = try lexer.next()
        let accepted = "use [c], [d], [n] or a combination such as [cd]"
        let letters = try lexer.next()
        let word: String
        switch letters.kind {
        case .identifier, .keyword: word = rawText(letters)
        case .rightBracket: throw error(.invalidOptions, "empty modifier []: \(accepted)", at: open.start)
        case .end: throw error(.invalidOptions, "modifier '[' is not closed: \(accepted)", at: open.start)
        default: throw error(.invalidOptions, "unknown modifier [\(rawText(letters))]: \(accepted)", at: letters.start)
        }
        guard letters.start == open.end else {
            throw error(.invalidOptions, "no blanks are allowed inside a modifier: write [\(word)]", at: open.start)
        }
        var options = ComparisonOptions()
        for letter in word.lowercased() {
            switch letter {
            case "c" where !options.caseInsensitive: options.caseInsensitive = true
            case "d" where !options.diacriticInsensitive: options.diacriticInsensitive = true
            case "n" where !options.normalized: options.normalized = true
            case "c", "d", "n":
                throw error(.invalidOptions, "modifier [\(word)] repeats '\(letter)': \(accepted)", at: letters.start)
            default:
                throw error(.invalidOptions, "unknown modifier [\(word)]: \(accepted)", at: letters.start)
            }
        }
        let close = try lexer.next()
        guard close.kind == .rightBracket, close.start == letters.end else {
            throw error(.invalidOptions, "modifier [\(word) is not closed: write [\(word)] with no blanks inside", at: close.start)
        }
        return options
    }
}
