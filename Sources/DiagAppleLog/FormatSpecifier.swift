/// One `%…` conversion of an os_log format string:
/// `%[{decoders}][flags][width][.precision][length]conversion`.
struct FormatSpecifier: Sendable, Equatable {
    var decoders: [String] = []
    var leftJustify = false
    var plusSign = false
    var spaceSign = false
    var alternate = false
    var zeroPad = false
    /// nil: none; -1: `*` (taken from a value).
    var width: Int?
    var precision: Int?
    var length = ""
    var conversion: Character = "d"

    /// The pieces of a format string: literal text and conversions, in order.
    enum Piece: Equatable {
        case text(String)
        case specifier(FormatSpecifier)
    }

    static func parse(_ format: String) -> [Piece] {
        var pieces: [Piece] = []
        var text = ""
        let characters = Array(format)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            guard character == "%" else {
                text.append(character)
                index += 1
                continue
            }
            if index + 1 < characters.count, characters[index + 1] == "%" {
                text.append("%")
                index += 2
                continue
            }
            guard let (specifier, next) = parseSpecifier(characters, from: index + 1) else {
                // Not a conversion Apple's `log` knows: kept as written.
                text.append(character)
                index += 1
                continue
            }
            if !text.isEmpty { pieces.append(.text(text)) }
            text = ""
            pieces.append(.specifier(specifier))
            index = next
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        return pieces
    }

    private static func parseSpecifier(_ characters: [Character], from start: Int) -> (FormatSpecifier, Int)? {
        var specifier = FormatSpecifier()
        var index = start
        if index < characters.count, characters[index] == "{" {
            guard let close = characters[index...].firstIndex(of: "}") else { return nil }
            specifier.decoders = String(characters[(index + 1)..<close]).split(separator: ",")
                .map { $0.trimmingCharacters(in: " ") }
            index = close + 1
        }
        flags: while index < characters.count {
            switch characters[index] {
            case "-": specifier.leftJustify = true
            case "+": specifier.plusSign = true
            case " ": specifier.spaceSign = true
            case "#": specifier.alternate = true
            case "0": specifier.zeroPad = true
            case "'": break
            default: break flags
            }
            index += 1
        }
        func number() -> Int? {
            if index < characters.count, characters[index] == "*" {
                index += 1
                return -1
            }
            var value: Int?
            while index < characters.count, let digit = characters[index].wholeNumberValue, characters[index].isASCII {
                value = min((value ?? 0) * 10 + digit, 1 << 20)
                index += 1
            }
            return value
        }
        specifier.width = number()
        if index < characters.count, characters[index] == "." {
            index += 1
            specifier.precision = number() ?? 0
        }
        while index < characters.count, "hljztqL".contains(characters[index]) {
            specifier.length.append(characters[index])
            index += 1
        }
        guard index < characters.count, "@aAcCdDeEfFgGimnoOpPsSuUxX".contains(characters[index]) else { return nil }
        specifier.conversion = characters[index]
        return (specifier, index + 1)
    }

    /// The decoder named, lower-cased, without `public`/`private`/`sensitive`/`name=` markers.
    var valueDecoder: String? {
        decoders.first { decoder in
            let lowered = decoder.lowercased()
            return !["public", "private", "sensitive"].contains(lowered) && !lowered.hasPrefix("name=") && !lowered.hasPrefix("name:")
        }
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: Character) -> String {
        var slice = Substring(self)
        while slice.first == set { slice.removeFirst() }
        while slice.last == set { slice.removeLast() }
        return String(slice)
    }
}
