import DiagModel

/// Turns raw operands into typed ones: keys to fields, words to symbols (§9.3), strings next to
/// a date field to instants (§9.4), literals folded for the options, patterns compiled (§5.2).
extension PredicateParser {
    func resolve(
        qualifier: Qualifier?, left rawLeft: RawOperand, op: ComparisonOperator, options: ComparisonOptions,
        right rawRight: RawOperand, operatorToken: Token
    ) throws(PredicateError) -> Comparison {
        let leftContext = symbolContext(of: rawRight)
        let rightContext = symbolContext(of: rawLeft)
        var left = try resolve(rawLeft, symbols: leftContext)
        var right = try resolve(rawRight, symbols: rightContext)
        if isDate(left) { right = datesParsed(right) }
        if isDate(right) { left = datesParsed(left) }
        if op == .between {
            guard case .aggregate(let bounds) = right, bounds.count == 2 else {
                throw error(.syntax, "BETWEEN needs an aggregate of exactly two values on its right: x BETWEEN {low, high}", at: rawRight.token.start)
            }
        }
        let folding = Comparison.folding(op: op, options: options)
        left = Self.folded(left, folding)
        right = Self.folded(right, folding)
        var pattern: Comparison.Pattern?
        if let text = right.literal?.value.stringValue {
            switch op {
            case .like:
                pattern = .like(LikePattern(text))
            case .matches:
                let caseInsensitive = options.caseInsensitive && !options.normalized
                do {
                    pattern = .regex(try RegexMatcher(pattern: text, caseInsensitive: caseInsensitive))
                } catch {
                    throw self.error(.invalidRegex, "invalid regular expression for MATCHES: \(error.reason)", at: rawRight.token.start)
                }
            default: break
            }
        }
        return Comparison(qualifier: qualifier, left: left, op: op, options: options, right: right, pattern: pattern)
    }

    /// The symbol tables that words on the other side of `operand` are looked up in.
    private func symbolContext(of operand: RawOperand) -> [SymbolKind] {
        let field: Field?
        switch operand {
        case .word(let name, _), .key(let name, _): field = Field.byKey[name]
        default: field = nil
        }
        switch field?.type {
        case .symbolic(let kind)?: return [kind]
        case .typeByValue?: return [.messageType, .eventType]
        default: return []
        }
    }

    private func resolve(_ operand: RawOperand, symbols: [SymbolKind]) throws(PredicateError) -> Operand {
        switch operand {
        case .word(let name, let token):
            // In a symbolic context the symbol reading wins over a key of the same name.
            for kind in symbols {
                if let code = kind.code(of: name) {
                    return .literal(Literal(source: .symbol(kind, code), value: .symbol(kind, code)))
                }
            }
            if let field = Field.byKey[name] { return .field(field, spelling: name) }
            if let kind = symbols.first {
                let fieldName = kind == .messageType && symbols.count > 1 ? "type" : "\(kind)"
                throw error(.unknownValue, "unknown value '\(name)' for \(fieldName): use \(symbols.map(\.acceptedWords).joined(separator: "; "))", at: token.start)
            }
            throw unknownField(name, token)
        case .key(let name, let token):
            guard let field = Field.byKey[name] else { throw unknownField(name, token) }
            return .field(field, spelling: Keyword.isReserved(name) ? "#" + name : name)
        case .metadata(let key, _):
            return .field(.metadata(key), spelling: "metadata." + (Keyword.isReserved(key) ? "#" + key : key))
        case .literal(let value, _):
            if case .string(let text) = value {
                for kind in symbols {
                    if let code = kind.code(of: text) {
                        return .literal(Literal(source: value, value: .symbol(kind, code)))
                    }
                }
            }
            return .literal(Literal(source: value, value: value))
        case .aggregate(let elements, _):
            var resolved: [Operand] = []
            for element in elements { resolved.append(try resolve(element, symbols: symbols)) }
            return .aggregate(resolved)
        case .record:
            return .record
        }
    }

    private func unknownField(_ name: String, _ token: Token) -> PredicateError {
        if name == "metadata" {
            return error(.unknownField, "metadata is a JSON object: compare one of its keys, metadata.<key>", at: token.start)
        }
        var message = "unknown field '\(name)'"
        if let suggestion = FieldSuggestion.closest(to: name) {
            message += " — did you mean '\(suggestion)'?"
        } else {
            message += ": fields are eventMessage (message), process, processID, sender, subsystem, category, messageType, eventType, timestamp, … and metadata.<key>"
        }
        return error(.unknownField, message, at: token.start)
    }

    private func isDate(_ operand: Operand) -> Bool {
        operand.field?.type == .date
    }

    /// String literals compared with a date field become instants; an unparseable one compares false.
    private func datesParsed(_ operand: Operand) -> Operand {
        switch operand {
        case .literal(let literal):
            guard case .string(let text) = literal.value else { return operand }
            return .literal(Literal(source: literal.source, value: dateZone.instant(text).map(Value.date) ?? .invalidDate))
        case .aggregate(let elements):
            return .aggregate(elements.map(datesParsed))
        default:
            return operand
        }
    }

    private static func folded(_ operand: Operand, _ folding: Folding) -> Operand {
        guard folding.isActive else { return operand }
        switch operand {
        case .literal(let literal):
            return .literal(Literal(source: literal.source, value: literal.value.folded(folding)))
        case .aggregate(let elements):
            return .aggregate(elements.map { folded($0, folding) })
        default:
            return operand
        }
    }
}

/// "did you mean …?" for a mistyped key: the closest name within two edits.
enum FieldSuggestion {
    static func closest(to name: String) -> String? {
        let candidates = Field.byKey.keys.sorted()
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(name.lowercased(), candidate.lowercased())
            if distance <= 2, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count < 64, b.count < 64 else { return .max }
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
