import Foundation

/// The SQL prefilters of message search needles (folded for case and diacritics): both keep
/// every record whose folded message contains the needle, and the caller narrows them exactly.
///
/// With the trigram index (`message_search`): it keeps no positions (`detail=none`), so a needle
/// is looked up as all of its trigrams. Without it: `diag_folded_contains(eventMessage, needle)`
/// folds the message as the index does and searches it (`FoldedContainsFunction`).
enum MessageSearch {
    /// True when the index can serve the needle: 3 characters or more.
    static func usesIndex(_ foldedNeedle: String) -> Bool {
        foldedNeedle.unicodeScalars.count >= 3
    }

    /// Without the index: the folded message searched for the needle by a function of ours
    /// (`FoldedContainsFunction`), on the bytes for ASCII messages.
    static let scanCondition = "\(FoldedContainsFunction.name)(eventMessage, ?)"

    static func scanBindings(needle: String) -> [SQLValueConvertible?] {
        [needle]
    }

    /// `"abc" AND "bcd" AND …` over the trigrams of every needle of 3 characters or more (after
    /// folding) that `choose` keeps (any subset keeps a superset of the records); nil when none is.
    static func matchExpression(needles: [String], choose: ([String]) -> [String] = { $0 }) -> String? {
        var trigrams: [String] = []
        var seen: Set<String> = []
        for needle in needles {
            // Folding again is harmless (it is idempotent) and keeps the prefilter a superset
            // even for a caller that forgot to fold.
            let scalars = Array(MessageSearchIndex.fold(needle).unicodeScalars)
            guard scalars.count >= 3 else { continue }
            for start in 0...(scalars.count - 3) {
                var trigram = String.UnicodeScalarView()
                trigram.append(contentsOf: scalars[start..<start + 3])
                let text = String(trigram)
                if seen.insert(text).inserted { trigrams.append(text) }
            }
        }
        let chosen = trigrams.isEmpty ? [] : choose(trigrams)
        guard !chosen.isEmpty else { return nil }
        return chosen.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " AND ")
    }
}
