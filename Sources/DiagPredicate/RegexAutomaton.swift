import Foundation
import Synchronization

/// A whole-string matcher for the common kind of `MATCHES` pattern: a sequence of
/// one-character atoms (literals, `.`, `\d`-style classes, `[…]` sets), each with an optional
/// quantifier (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, greedy or lazy), run as a bit-parallel
/// automaton over the bytes of ASCII text, about a hundred times faster than ICU through
/// NSRegularExpression.
///
/// It gives NSRegularExpression's answer by construction: which ASCII characters each atom
/// accepts is asked of NSRegularExpression itself, with the matcher's own options, when the
/// automaton is built; a sequence of one-character atoms matches a string exactly when some
/// split of the string gives each atom one accepted character (or none, or several, as its
/// quantifier allows), which is what the automaton tracks; laziness does not change whether a
/// whole-string match exists. Characters past ASCII are asked of NSRegularExpression the first
/// time they are met (one code point at a time, as ICU matches them), and remembered.
/// What it cannot decide it leaves to the caller: `matches` returns nil for text that holds a
/// carriage return (ICU's `.` takes CR LF as one character), for text past ASCII under `[c]`
/// (ICU folds case to several characters there: `ß` matches `ss`), and once it has met more
/// than `rememberedLimit` distinct characters past ASCII; `init` fails for every other construct
/// (groups, alternation, anchors, backreferences, possessive quantifiers, `\Q`, `\x`, …) and
/// for more than 63 positions.
final class RegexAutomaton: Sendable {
    /// Bit p: the element after position p accepts the byte.
    private let accepts: [UInt64]
    /// Bit p: the element after position p is taken once at most (exactly once or optionally).
    private let advances: UInt64
    /// Bit p: the element after position p repeats (`*`).
    private let repeats: UInt64
    /// Bit p: the element after position p may be skipped (`?`, `*`).
    private let skippable: UInt64
    private let final: UInt64
    private let start: UInt64
    private let closureSteps: Int
    /// Bit p: every element from p on is `.*`, which takes whatever text is left (`.` matches
    /// every character with `.dotMatchesLineSeparators`, CR LF included).
    private let takesTheRest: UInt64
    private let caseInsensitive: Bool
    /// Each position's atom alone (`\A(?:atom)\z`), for characters past ASCII.
    private let atomExpressions: [NSRegularExpression]
    /// Characters past ASCII met so far, with their bits as in `accepts`.
    private let remembered = Mutex<[UInt32: UInt64]>([:])
    static let rememberedLimit = 4096

    private enum Count { case once, optional, star }

    init?(pattern: String, options: NSRegularExpression.Options) {
        guard let elements = Self.parse(pattern, caseInsensitive: options.contains(.caseInsensitive)) else { return nil }
        var expanded: [(atom: String, count: Count)] = []
        for element in elements {
            for _ in 0..<element.minimum { expanded.append((element.atom, .once)) }
            if let maximum = element.maximum {
                for _ in element.minimum..<maximum { expanded.append((element.atom, .optional)) }
            } else {
                expanded.append((element.atom, .star))
            }
            guard expanded.count <= 63 else { return nil }
        }
        var accepts = [UInt64](repeating: 0, count: 128)
        var advances: UInt64 = 0, repeats: UInt64 = 0, skippable: UInt64 = 0
        var tables: [String: (expression: NSRegularExpression, ascii: [Bool])] = [:]
        var atomExpressions: [NSRegularExpression] = []
        for (position, element) in expanded.enumerated() {
            let bit: UInt64 = 1 << UInt64(position)
            if tables[element.atom] == nil {
                guard let expression = try? NSRegularExpression(pattern: "\\A(?:" + element.atom + ")\\z", options: options) else { return nil }
                tables[element.atom] = (expression, (0..<128).map { Self.accepts(expression, String(UnicodeScalar(UInt8($0)))) })
            }
            let table = tables[element.atom]!
            atomExpressions.append(table.expression)
            for byte in 0..<128 where table.ascii[byte] { accepts[byte] |= bit }
            switch element.count {
            case .once: advances |= bit
            case .optional: advances |= bit; skippable |= bit
            case .star: repeats |= bit; skippable |= bit
            }
        }
        self.accepts = accepts
        self.advances = advances
        self.repeats = repeats
        self.skippable = skippable
        let finalBit: UInt64 = 1 << UInt64(expanded.count)
        final = finalBit
        closureSteps = Self.longestRun(skippable)
        var takesTheRest: UInt64 = 0
        for position in expanded.indices.reversed() {
            guard expanded[position].atom == ".", expanded[position].count == .star, options.contains(.dotMatchesLineSeparators) else { break }
            takesTheRest |= 1 << UInt64(position)
        }
        self.takesTheRest = takesTheRest
        var start: UInt64 = 1
        for _ in 0..<closureSteps { start |= (start & skippable) << 1 }
        self.start = start
        caseInsensitive = options.contains(.caseInsensitive)
        self.atomExpressions = atomExpressions
    }

    /// Whether the whole of `text` (valid UTF-8) matches; nil when the automaton cannot tell.
    func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
        accepts.withUnsafeBufferPointer { matches(text, accepts: $0) }
    }

    private func matches(_ text: UnsafeBufferPointer<UInt8>, accepts: UnsafeBufferPointer<UInt64>) -> Bool? {
        var state = start
        var index = 0
        while index < text.count {
            if state & takesTheRest != 0 { return true }
            let byte = text[index]
            let accepted: UInt64
            if byte < 0x80 {
                guard byte != 0x0D else { return nil }
                accepted = accepts[Int(byte)]
                index += 1
            } else {
                guard !caseInsensitive, let (scalar, length) = Self.scalar(text, at: index), let bits = bits(of: scalar) else { return nil }
                accepted = bits
                index += length
            }
            let taken = state & accepted
            state = closure(((taken & advances) << 1) | (taken & repeats))
            if state == 0 {
                // No position is alive; only a CR (or a character past ASCII under [c]) ahead
                // could make the answer the engine's.
                for rest in text[index...] where rest == 0x0D || (caseInsensitive && rest >= 0x80) { return nil }
                return false
            }
        }
        return state & final != 0
    }

    /// The bits of the positions whose atom accepts `scalar`, asked of the engine once.
    private func bits(of scalar: UInt32) -> UInt64? {
        if let known = remembered.withLock({ $0[scalar] }) { return known }
        guard let unicode = Unicode.Scalar(scalar) else { return nil }
        let text = String(unicode)
        var bits: UInt64 = 0
        for (position, expression) in atomExpressions.enumerated() where Self.accepts(expression, text) {
            bits |= 1 << UInt64(position)
        }
        return remembered.withLock { remembered in
            guard remembered.count < Self.rememberedLimit else { return nil }
            remembered[scalar] = bits
            return bits
        }
    }

    /// The code point starting at `index` of valid UTF-8, and its length in bytes.
    private static func scalar(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int)? {
        let lead = UInt32(text[index])
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard length > 0, index + length <= text.count else { return nil }
        var value = lead & (0x7F >> UInt32(length))
        for offset in 1..<length {
            let continuation = UInt32(text[index + offset])
            guard continuation & 0xC0 == 0x80 else { return nil }
            value = value << 6 | (continuation & 0x3F)
        }
        return (value, length)
    }

    private static func accepts(_ expression: NSRegularExpression, _ text: String) -> Bool {
        expression.firstMatch(in: text, options: [], range: NSRange(location: 0, length: text.utf16.count)) != nil
    }

    /// `state` with every position reachable by skipping skippable elements.
    @inline(__always)
    private func closure(_ state: UInt64) -> UInt64 {
        var state = state
        for _ in 0..<closureSteps { state |= (state & skippable) << 1 }
        return state
    }

    /// The longest run of skippable positions in a row: how many skips a closure needs.
    private static func longestRun(_ bits: UInt64) -> Int {
        var longest = 0, current = 0, bits = bits
        while bits != 0 {
            if bits & 1 == 1 { current += 1; longest = max(longest, current) } else { current = 0 }
            bits >>= 1
        }
        return longest
    }

}
