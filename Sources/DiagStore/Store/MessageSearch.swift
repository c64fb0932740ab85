import Foundation
/// The FTS5 query for message search needles against the trigram index (`message_search`).
///
/// The index keeps no positions (`detail=none`), so a needle is looked up as all of its
/// trigrams: a superset of the records that contain it, which the caller narrows exactly.
enum MessageSearch {
    /// `"abc" AND "bcd" AND …` over every needle of 3 characters or more (after folding); nil
    /// when none is.
    static func matchExpression(needles: [String]) -> String? {
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
        guard !trigrams.isEmpty else { return nil }
        return trigrams.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " AND ")
    }
}
