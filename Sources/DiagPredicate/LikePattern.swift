/// A compiled `LIKE` pattern (PREDICATES.md §5.1): `*` any run of characters (line breaks
/// included), `?` exactly one character, `\` makes the next character literal.
///
/// Characters are grapheme clusters, compared by their scalars; matching is iterative with
/// backtracking to the last `*`, so hostile patterns cost O(n·m), never recursion.
struct LikePattern: Sendable {
    enum Element: Sendable, Equatable {
        case anyRun
        case anyCharacter
        case literal([Unicode.Scalar])
    }

    let elements: [Element]
    /// The pattern holds only ASCII: an ASCII subject can be matched byte by byte.
    private let asciiElements: [UInt16]?

    private static let anyRunCode: UInt16 = 0x100
    private static let anyCharacterCode: UInt16 = 0x101

    init(_ pattern: String) {
        var elements: [Element] = []
        var escaped = false
        for character in pattern {
            if escaped {
                elements.append(.literal(Array(character.unicodeScalars)))
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "*": if elements.last != .anyRun { elements.append(.anyRun) }
            case "?": elements.append(.anyCharacter)
            default: elements.append(.literal(Array(character.unicodeScalars)))
            }
        }
        if escaped { elements.append(.literal(["\\"])) }
        self.elements = elements
        var ascii: [UInt16] = []
        for element in elements {
            switch element {
            case .anyRun: ascii.append(Self.anyRunCode)
            case .anyCharacter: ascii.append(Self.anyCharacterCode)
            case .literal(let scalars):
                // "\r\n" is one character; keep it on the grapheme path.
                guard scalars.count == 1, scalars[0].isASCII else { ascii.removeAll(); self.asciiElements = nil; return }
                ascii.append(UInt16(scalars[0].value))
            }
        }
        self.asciiElements = ascii
    }

    /// Runs of literal text between wildcards, each a necessary substring of any match.
    var literalRuns: [String] {
        var runs: [String] = []
        var current = String.UnicodeScalarView()
        for element in elements {
            if case .literal(let scalars) = element {
                current.append(contentsOf: scalars)
            } else if !current.isEmpty {
                runs.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { runs.append(String(current)) }
        return runs
    }

    func matches(_ subject: String) -> Bool {
        var subject = subject
        if let asciiElements, let result = subject.withUTF8({ bytes -> Bool? in
            guard !bytes.contains(where: { $0 >= 0x80 || $0 == 0x0D }) else { return nil }
            return Self.match(count: bytes.count, patternCount: asciiElements.count,
                              isAnyRun: { asciiElements[$0] == Self.anyRunCode },
                              matchesOne: { p, s in asciiElements[p] == Self.anyCharacterCode || asciiElements[p] == UInt16(bytes[s]) })
        }) {
            return result
        }
        let characters = Array(subject)
        return Self.match(count: characters.count, patternCount: elements.count,
                          isAnyRun: { elements[$0] == .anyRun },
                          matchesOne: { p, s in
                              switch elements[p] {
                              case .anyCharacter: return true
                              case .anyRun: return false
                              case .literal(let scalars): return characters[s].unicodeScalars.elementsEqual(scalars)
                              }
                          })
    }

    private static func match(count: Int, patternCount: Int, isAnyRun: (Int) -> Bool, matchesOne: (Int, Int) -> Bool) -> Bool {
        var s = 0, p = 0
        var starPattern = -1, starSubject = 0
        while s < count {
            if p < patternCount, !isAnyRun(p), matchesOne(p, s) {
                s += 1
                p += 1
            } else if p < patternCount, isAnyRun(p) {
                starPattern = p
                starSubject = s
                p += 1
            } else if starPattern >= 0 {
                p = starPattern + 1
                starSubject += 1
                s = starSubject
            } else {
                return false
            }
        }
        while p < patternCount, isAnyRun(p) { p += 1 }
        return p == patternCount
    }
}
