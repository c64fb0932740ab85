import DiagModel

extension PredicateNode {
    /// Left to right, short-circuiting (§3.1); a missing field never raises (§6).
    func evaluate(_ record: LogRecord) -> Bool {
        switch self {
        case .constant(let value): return value
        case .not(let node): return !node.evaluate(record)
        case .and(let nodes):
            for node in nodes where !node.evaluate(record) { return false }
            return true
        case .or(let nodes):
            for node in nodes where node.evaluate(record) { return true }
            return false
        case .comparison(let comparison): return comparison.evaluate(record)
        }
    }
}

extension Comparison {
    func evaluate(_ record: LogRecord) -> Bool {
        let folding = self.folding
        if let (field, needle) = stringNeedle {
            guard case .string(let text) = field.value(in: record) else { return op == .notEqual }
            return StringSearch.foldedMatch(text, needle, op, folding)
        }
        let rightValue = right.value(in: record, folding: folding)
        let leftValue = left.value(in: record, folding: folding)
        guard let qualifier else { return apply(leftValue, rightValue) }
        // A scalar is a one-element collection, a missing field an empty one (§7.4).
        let elements: [Value]
        switch leftValue {
        case .aggregate(let values): elements = values
        case .null: elements = []
        default: elements = [leftValue]
        }
        switch qualifier {
        case .anyElement: return elements.contains { apply($0, rightValue) }
        case .allElements: return !elements.isEmpty && elements.allSatisfy { apply($0, rightValue) }
        case .noElement: return !elements.contains { apply($0, rightValue) }
        }
    }

    private func apply(_ lhs: Value, _ rhs: Value) -> Bool {
        switch op {
        case .equal: return ValueComparison.equal(lhs, rhs)
        case .notEqual: return !ValueComparison.equal(lhs, rhs)
        case .lessThan: return ValueComparison.order(lhs, rhs).map { $0 < 0 } ?? false
        case .lessThanOrEqual: return ValueComparison.order(lhs, rhs).map { $0 <= 0 } ?? false
        case .greaterThan: return ValueComparison.order(lhs, rhs).map { $0 > 0 } ?? false
        case .greaterThanOrEqual: return ValueComparison.order(lhs, rhs).map { $0 >= 0 } ?? false
        case .between:
            guard case .aggregate(let bounds) = rhs, bounds.count == 2,
                  let low = ValueComparison.order(lhs, bounds[0]), let high = ValueComparison.order(lhs, bounds[1])
            else { return false }
            return low >= 0 && high <= 0
        case .in:
            switch rhs {
            case .aggregate(let elements): return elements.contains { ValueComparison.equal(lhs, $0) }
            case .string(let text): return lhs.stringValue.map { StringSearch.contains(text, $0) } ?? false
            default: return false
            }
        case .contains:
            switch lhs {
            case .aggregate(let elements): return elements.contains { ValueComparison.equal($0, rhs) }
            case .string(let text): return rhs.stringValue.map { StringSearch.contains(text, $0) } ?? false
            default: return false
            }
        case .beginsWith:
            guard let text = lhs.stringValue, let prefix = rhs.stringValue else { return false }
            return StringSearch.hasPrefix(text, prefix)
        case .endsWith:
            guard let text = lhs.stringValue, let suffix = rhs.stringValue else { return false }
            return StringSearch.hasSuffix(text, suffix)
        case .like:
            guard let text = lhs.stringValue, let patternText = rhs.stringValue else { return false }
            if case .like(let compiled)? = pattern { return compiled.matches(text) }
            return LikePattern(patternText).matches(text)
        case .matches:
            guard let text = lhs.stringValue, let patternText = rhs.stringValue else { return false }
            if case .regex(let compiled)? = pattern { return compiled.matches(text) }
            // A pattern read from a field: compiled per record; an invalid one matches nothing.
            guard let compiled = try? RegexMatcher(pattern: patternText, caseInsensitive: regexCaseInsensitive, automaton: false) else { return false }
            return compiled.matches(text)
        }
    }
}

extension Operand {
    /// The operand's value for `record`, strings folded for the comparison (literals are folded
    /// once, when the predicate is parsed).
    func value(in record: LogRecord, folding: Folding) -> Value {
        switch self {
        case .literal(let literal): return literal.value
        case .record: return .record
        case .aggregate(let operands): return .aggregate(operands.map { $0.value(in: record, folding: folding) })
        case .field(let field, _):
            let value = field.value(in: record)
            return folding.isActive ? value.folded(folding) : value
        }
    }
}

extension Field {
    func value(in record: LogRecord) -> Value {
        func text(_ value: String?) -> Value { value.map(Value.string) ?? .null }
        func integer(_ value: Int64?) -> Value { value.map(Value.int) ?? .null }
        switch self {
        case .eventMessage: return .string(record.eventMessage)
        case .process: return text(record.process)
        case .processImagePath: return text(record.processImagePath)
        case .processID: return integer(record.processID)
        case .userID: return integer(record.userID)
        case .sender: return text(record.sender)
        case .senderImagePath: return text(record.senderImagePath)
        case .subsystem: return text(record.subsystem)
        case .category: return text(record.category)
        case .messageType: return .symbol(.messageType, Int64(record.messageType.rawValue))
        case .eventType: return .symbol(.eventType, Int64(record.eventType.rawValue))
        case .typeByValue:
            return .recordTypes(messageType: Int64(record.messageType.rawValue), eventType: Int64(record.eventType.rawValue))
        case .threadID: return integer(record.threadID)
        case .activityIdentifier: return integer(record.activityIdentifier)
        case .parentActivityIdentifier: return integer(record.parentActivityIdentifier)
        case .traceID: return integer(record.traceID)
        case .timestamp: return .date(record.timestamp)
        case .formatString: return text(record.formatString)
        case .signpostID: return integer(record.signpostID)
        case .signpostName: return text(record.signpostName)
        case .signpostType:
            guard let name = record.signpostType else { return .null }
            return SymbolKind.signpostTypeCode(name).map { .symbol(.signpostType, $0) } ?? .string(name)
        case .signpostScope:
            guard let name = record.signpostScope else { return .null }
            return SymbolKind.signpostScopeCode(name).map { .symbol(.signpostScope, $0) } ?? .string(name)
        case .absent: return .null
        case .metadata(let key):
            guard let value = record.metadata?[key] else { return .null }
            return Value(value)
        }
    }
}
