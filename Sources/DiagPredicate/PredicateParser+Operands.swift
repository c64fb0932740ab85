/// Operands: literals, keys, `metadata.<key>`, `$NAME` and `{…}` aggregates (PREDICATES.md §2, §3).
extension PredicateParser {
    /// One operand; `after` is the operator it follows, for messages.
    mutating func parseOperand(after operatorToken: Token?) throws(PredicateError) -> RawOperand {
        let token = try lexer.next()
        switch token.kind {
        case .string(let text): return .literal(.string(text), token)
        case .integer(let number): return .literal(.int(number), token)
        case .double(let number): return .literal(.double(number), token)
        case .keyword(.true), .keyword(.yes): return .literal(.bool(true), token)
        case .keyword(.false), .keyword(.no): return .literal(.bool(false), token)
        case .keyword(.null), .keyword(.nil): return .literal(.null, token)
        case .keyword(.self): return .record(token)
        case .variable(let name):
            guard let text = variables[name] else {
                throw error(.unboundVariable, "variable $\(name) is not bound: pass --var \(name)=VALUE", at: token.start)
            }
            return .literal(Self.variableValue(text), token)
        case .identifier(let name), .escapedIdentifier(let name):
            return try parseKey(name, token, escaped: token.kind == .escapedIdentifier(name))
        case .leftBrace:
            return try parseAggregate(token)
        case .keyword(let keyword):
            switch keyword {
            case .subquery, .fetch, .cast, .anyKey, .first, .last, .size:
                throw error(.unsupportedConstruct, "\(keyword.rawValue) is not part of the log predicate language" + (keyword == .size ? " (a key named size is written #size)" : ""), at: token.start)
            case .caseInsensitive, .ci:
                throw error(.syntax, "\(keyword.rawValue) is a reserved word: write the key as #\(rawText(token))", at: token.start)
            default: break
            }
        default: break
        }
        if let operatorToken {
            throw error(.syntax, "expected a string, number or field name after \(describe(operatorToken)), found \(describe(token))", at: token.start)
        }
        throw error(.syntax, "expected a comparison (a field name, a string or a number), found \(describe(token))", at: token.start)
    }

    /// A `--var` value: a number if it reads as one, otherwise a string (§2.8).
    static func variableValue(_ text: String) -> Value {
        var lexer = PredicateLexer(text)
        if let token = try? lexer.next(), (try? lexer.next())?.kind == .end {
            switch token.kind {
            case .integer(let number): return .int(number)
            case .double(let number): return .double(number)
            default: break
            }
        }
        return .string(text)
    }

    private mutating func parseKey(_ name: String, _ token: Token, escaped: Bool) throws(PredicateError) -> RawOperand {
        let next = try lexer.peek()
        switch next.kind {
        case .dot:
            _ = try lexer.next()
            guard name == "metadata" else {
                throw error(.unsupportedConstruct, "dotted key paths are not supported (\(name).…): the one accepted is metadata.<key>", at: token.start)
            }
            let key = try lexer.next()
            let keyName: String
            switch key.kind {
            case .identifier(let text), .escapedIdentifier(let text): keyName = text
            case .keyword(let keyword):
                throw error(.syntax, "\(keyword.rawValue) is a reserved word: write metadata.#\(rawText(key))", at: key.start)
            default:
                throw error(.syntax, "expected a key name after 'metadata.', found \(describe(key))", at: key.start)
            }
            if try lexer.peek().kind == .dot {
                throw error(.unsupportedConstruct, "only one level of metadata key is supported: metadata.<key>", at: try lexer.peek().start)
            }
            return .metadata(keyName, Token(kind: token.kind, start: token.start, end: key.end))
        case .leftParenthesis:
            throw error(.unsupportedConstruct, "function calls (\(name)(…)) are not part of the log predicate language", at: token.start)
        case .leftBracket:
            throw error(.unsupportedConstruct, "index expressions (\(name)[…]) are not part of the log predicate language", at: next.start)
        default:
            return escaped ? .key(name, token) : .word(name, token)
        }
    }

    private mutating func parseAggregate(_ open: Token) throws(PredicateError) -> RawOperand {
        try enterAggregate(at: open.start)
        var elements: [RawOperand] = []
        if try lexer.peek().kind == .rightBrace {
            let close = try lexer.next()
            leaveAggregate()
            return .aggregate([], Token(kind: open.kind, start: open.start, end: close.end))
        }
        while true {
            let element = try parseOperand(after: elements.isEmpty ? open : nil)
            if case .aggregate = element {
                throw error(.syntax, "aggregates cannot be nested: {…} holds strings, numbers and key names", at: element.token.start)
            }
            elements.append(element)
            let separator = try lexer.next()
            switch separator.kind {
            case .comma:
                if try lexer.peek().kind == .rightBrace {
                    throw error(.syntax, "expected a value after ',' (no trailing comma in {…})", at: try lexer.peek().start)
                }
            case .rightBrace:
                leaveAggregate()
                return .aggregate(elements, Token(kind: open.kind, start: open.start, end: separator.end))
            default:
                let column = error(.syntax, "", at: open.start).column
                throw error(.syntax, "expected ',' or '}' to close the '{' at column \(column), found \(describe(separator))", at: separator.start)
            }
        }
    }
}

extension PredicateParser {
    /// The token as written in the source.
    func rawText(_ token: Token) -> String {
        String(decoding: lexer.bytes[token.start..<token.end], as: UTF8.self)
    }
}
