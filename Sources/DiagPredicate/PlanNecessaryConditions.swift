import DiagModel

/// Conditions every matching record meets, read from the top-level conjuncts only (a condition
/// under OR or NOT is not necessary): the time window and the message search needles.
enum PlanNecessaryConditions {
    /// Nested ANDs flattened: each element must hold for a record to match.
    static func necessary(_ conjuncts: [PredicateNode]) -> [Comparison] {
        conjuncts.flatMap { node -> [Comparison] in
            switch node {
            case .comparison(let comparison) where comparison.qualifier == nil: [comparison]
            case .and(let children): necessary(children)
            default: []
            }
        }
    }

    static func timeRange(_ conjuncts: [PredicateNode]) -> TimeRange {
        var range = TimeRange()
        for comparison in necessary(conjuncts) {
            var op = comparison.op
            var other = comparison.right
            if comparison.left.field != .timestamp {
                guard comparison.right.field == .timestamp else { continue }
                other = comparison.left
                switch op {
                case .lessThan: op = .greaterThan
                case .lessThanOrEqual: op = .greaterThanOrEqual
                case .greaterThan: op = .lessThan
                case .greaterThanOrEqual: op = .lessThanOrEqual
                case .equal: break
                default: continue
                }
            }
            if case .aggregate(let bounds) = other, op == .between, bounds.count == 2 {
                guard case .date(let low)? = bounds[0].literal?.value, case .date(let high)? = bounds[1].literal?.value else {
                    if bounds.contains(where: { if case .invalidDate? = $0.literal?.value { true } else { false } }) {
                        range.narrow(start: 1, end: 0)
                    }
                    continue
                }
                range.narrow(start: low, end: high == .max ? nil : high + 1)
                continue
            }
            guard let literal = other.literal?.value else { continue }
            if case .invalidDate = literal, op != .notEqual {
                range.narrow(start: 1, end: 0)
                continue
            }
            guard case .date(let instant) = literal else { continue }
            switch op {
            case .equal: range.narrow(start: instant, end: instant == .max ? nil : instant + 1)
            case .greaterThan: range.narrow(start: instant == .max ? instant : instant + 1, end: instant == .max ? instant : nil)
            case .greaterThanOrEqual: range.narrow(start: instant, end: nil)
            case .lessThan: range.narrow(start: nil, end: instant)
            case .lessThanOrEqual: range.narrow(start: nil, end: instant == .max ? nil : instant + 1)
            default: break
            }
        }
        return range
    }

    /// Folded needles of 3+ characters that the folded `eventMessage` of every match contains.
    static func messageSearch(_ conjuncts: [PredicateNode]) -> [String] {
        var needles: [String] = []
        for comparison in necessary(conjuncts) {
            for text in requiredMessageText(comparison) {
                let needle = TextFolding.fold(text, caseInsensitive: true, diacriticInsensitive: true)
                if needle.unicodeScalars.count >= 3, !needles.contains(needle) { needles.append(needle) }
            }
        }
        return needles
    }

    /// Text the message must contain (before folding) for `comparison` to hold.
    ///
    /// Not for `[d]` without `[c]`: U+0345 is a diacritic that case folding turns into a
    /// letter (ι), so a `[d]` match can be missing from the `[cd]`-folded text the index holds.
    private static func requiredMessageText(_ comparison: Comparison) -> [String] {
        let left = comparison.left, right = comparison.right
        if comparison.options.diacriticInsensitive, !comparison.options.caseInsensitive, !comparison.options.normalized {
            return []
        }
        if left.field == .eventMessage, case .string(let text)? = right.literal?.source {
            switch comparison.op {
            case .equal, .contains, .beginsWith, .endsWith: return [text]
            case .like: return LikePattern(text).literalRuns
            case .matches:
                guard case .regex(let matcher)? = comparison.pattern else { return [] }
                return RegexLiteralRuns.required(matcher.pattern)
            default: return []
            }
        }
        if right.field == .eventMessage, case .string(let text)? = left.literal?.source {
            switch comparison.op {
            case .equal, .in: return [text]
            default: return []
            }
        }
        return []
    }
}
