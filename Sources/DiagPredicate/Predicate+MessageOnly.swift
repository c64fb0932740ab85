import DiagModel

extension Predicate {
    /// True when the predicate reads no field of a record but `eventMessage` (and literals):
    /// `evaluate(message:)` then decides it from the message alone, so a store can check it on
    /// the message column before it decodes a whole record.
    public var readsOnlyMessage: Bool { node.readsOnlyMessage }

    /// The predicate on a record whose message is `message`: the same answer as `evaluate(_:)`
    /// for every record with that message when `readsOnlyMessage` is true (any other field it
    /// read would be missing here).
    public func evaluate(message: String) -> Bool {
        executionNode.evaluate(LogRecord(timestamp: 0, eventMessage: message))
    }

    /// `evaluate(message:)` on the message's UTF-8 bytes as stored (bytes that are not UTF-8
    /// read as `String(decoding:as:)` repairs them). A lone `message MATCHES "…"` runs on the
    /// bytes themselves when they are ASCII, without making a `String`.
    public func evaluate(messageUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if case .comparison(let comparison) = executionNode, let answer = comparison.matchesMessage(bytes) {
            return answer
        }
        return evaluate(message: String(decoding: bytes, as: UTF8.self))
    }
}

extension Comparison {
    /// The comparison decided on the message's bytes, without a `String` or a record, when
    /// that is sure to give `evaluate`'s answer; nil otherwise:
    /// - `message MATCHES "literal"` (no diacritic folding) on ASCII bytes, when the regex's
    ///   automaton decides it;
    /// - a string operator with a literal, when the bytes decide it in place as `foldedMatch`
    ///   decides a `String` (`StringSearch.matchInPlace`).
    func matchesMessage(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        if let (field, needle) = stringNeedle, field == .eventMessage {
            var needle = needle
            let lowercasing = folding.caseInsensitive
            return needle.withUTF8 { StringSearch.matchInPlace(bytes, $0, op, lowercasing: lowercasing) }
        }
        guard qualifier == nil, op == .matches, case .field(.eventMessage, _) = left, !folding.isActive,
              case .regex(let matcher)? = pattern, UTF8Validation.isASCII(bytes)
        else { return nil }
        return matcher.matches(ascii: bytes)
    }
}

extension PredicateNode {
    var readsOnlyMessage: Bool {
        switch self {
        case .constant: return true
        case .not(let child): return child.readsOnlyMessage
        case .and(let children), .or(let children): return children.allSatisfy(\.readsOnlyMessage)
        case .comparison(let comparison): return comparison.left.readsOnlyMessage && comparison.right.readsOnlyMessage
        }
    }
}

extension Operand {
    var readsOnlyMessage: Bool {
        switch self {
        case .literal: return true
        case .record: return false
        case .aggregate(let operands): return operands.allSatisfy(\.readsOnlyMessage)
        case .field(let field, _):
            switch field {
            case .eventMessage, .absent: return true
            default: return false
            }
        }
    }
}
