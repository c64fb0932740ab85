/// Splits predicate text into tokens on demand (PREDICATES.md §2), so that the first error in
/// reading order is the one reported.
struct PredicateLexer {
    let source: String
    let bytes: [UInt8]
    var position = 0
    private var lookahead: [Token] = []

    init(_ source: String) {
        self.source = source
        self.bytes = Array(source.utf8)
    }

    func error(_ kind: PredicateError.Kind, _ message: String, at offset: Int) -> PredicateError {
        PredicateError(kind, message, in: source, at: offset)
    }

    /// The token `distance` positions ahead, without consuming it.
    mutating func peek(_ distance: Int = 0) throws(PredicateError) -> Token {
        while lookahead.count <= distance { lookahead.append(try scan()) }
        return lookahead[distance]
    }

    mutating func next() throws(PredicateError) -> Token {
        let token = try peek()
        lookahead.removeFirst()
        return token
    }

    private func byte(_ offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)  // space, TAB, LF, VT, FF, CR
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
    }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func scan() throws(PredicateError) -> Token {
        while let byte = byte(position), Self.isBlank(byte) { position += 1 }
        let start = position
        guard let first = byte(position) else { return Token(kind: .end, start: start, end: start) }
        func token(_ kind: Token.Kind, length: Int) -> Token {
            position = start + length
            return Token(kind: kind, start: start, end: position)
        }
        let second = byte(position + 1)
        switch first {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let text = try scanString(quote: first)
            return Token(kind: .string(text), start: start, end: position)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try scanNumber(negative: false)
        case UInt8(ascii: "."):
            if let second, Self.isDigit(second) { return try scanNumber(negative: false) }
            return token(.dot, length: 1)
        case UInt8(ascii: "-"):
            if let second, Self.isDigit(second) || (second == UInt8(ascii: ".") && byte(position + 2).map(Self.isDigit) == true) {
                position += 1
                return try scanNumber(negative: true, start: start)
            }
            throw error(.unsupportedConstruct, "arithmetic ('-') is not part of the log predicate language; a '-' is only accepted directly before a number (processID > -1)", at: start)
        case _ where Self.isIdentifierStart(first):
            return scanWord()
        case UInt8(ascii: "#"):
            guard let second, Self.isIdentifierStart(second) else {
                throw error(.syntax, "expected a key name after '#' (write #size for a key that is a reserved word)", at: start)
            }
            position += 1
            let name = scanIdentifier()
            return Token(kind: .escapedIdentifier(name), start: start, end: position)
        case UInt8(ascii: "$"):
            guard let second, Self.isIdentifierStart(second) else {
                throw error(.syntax, "expected a variable name after '$' ($NAME, bound with --var NAME=VALUE)", at: start)
            }
            position += 1
            let name = scanIdentifier()
            return Token(kind: .variable(name), start: start, end: position)
        case UInt8(ascii: "%"):
            let specifier = second.map { "%" + String(UnicodeScalar($0)) } ?? "%"
            throw error(.formatSpecifier, "format specifier '\(specifier)' needs an argument list, which a command line does not have: write $NAME and pass --var NAME=VALUE", at: start)
        default:
            return try scanPunctuation(first, second, start: start)
        }
    }

    private mutating func scanPunctuation(_ first: UInt8, _ second: UInt8?, start: Int) throws(PredicateError) -> Token {
        func token(_ kind: Token.Kind, length: Int) -> Token {
            position = start + length
            return Token(kind: kind, start: start, end: position)
        }
        switch (first, second) {
        case (UInt8(ascii: "="), UInt8(ascii: "=")):
            if byte(start + 2) == UInt8(ascii: "=") {
                throw error(.syntax, "'===' is not an operator: use '==' or '='", at: start)
            }
            return token(.comparison(.equal), length: 2)
        case (UInt8(ascii: "="), UInt8(ascii: "<")): return token(.comparison(.lessThanOrEqual), length: 2)
        case (UInt8(ascii: "="), UInt8(ascii: ">")): return token(.comparison(.greaterThanOrEqual), length: 2)
        case (UInt8(ascii: "="), UInt8(ascii: "~")):
            throw error(.syntax, "'=~' is not an operator: use MATCHES for a regular expression", at: start)
        case (UInt8(ascii: "="), _): return token(.comparison(.equal), length: 1)
        case (UInt8(ascii: "!"), UInt8(ascii: "=")): return token(.comparison(.notEqual), length: 2)
        case (UInt8(ascii: "!"), _): return token(.notSymbol, length: 1)
        case (UInt8(ascii: "<"), UInt8(ascii: "=")): return token(.comparison(.lessThanOrEqual), length: 2)
        case (UInt8(ascii: "<"), UInt8(ascii: ">")): return token(.comparison(.notEqual), length: 2)
        case (UInt8(ascii: "<"), _): return token(.comparison(.lessThan), length: 1)
        case (UInt8(ascii: ">"), UInt8(ascii: "=")): return token(.comparison(.greaterThanOrEqual), length: 2)
        case (UInt8(ascii: ">"), _): return token(.comparison(.greaterThan), length: 1)
        case (UInt8(ascii: "&"), UInt8(ascii: "&")): return token(.andSymbol, length: 2)
        case (UInt8(ascii: "|"), UInt8(ascii: "|")): return token(.orSymbol, length: 2)
        case (UInt8(ascii: "&"), _):
            throw error(.syntax, "a single '&' is not an operator: use '&&' or AND", at: start)
        case (UInt8(ascii: "|"), _):
            throw error(.syntax, "a single '|' is not an operator: use '||' or OR", at: start)
        case (UInt8(ascii: "("), _): return token(.leftParenthesis, length: 1)
        case (UInt8(ascii: ")"), _): return token(.rightParenthesis, length: 1)
        case (UInt8(ascii: "{"), _): return token(.leftBrace, length: 1)
        case (UInt8(ascii: "}"), _): return token(.rightBrace, length: 1)
        case (UInt8(ascii: "["), _): return token(.leftBracket, length: 1)
        case (UInt8(ascii: "]"), _): return token(.rightBracket, length: 1)
        case (UInt8(ascii: ","), _): return token(.comma, length: 1)
        case (UInt8(ascii: "+"), _), (UInt8(ascii: "*"), _), (UInt8(ascii: "/"), _):
            throw error(.unsupportedConstruct, "arithmetic ('\(UnicodeScalar(first))') is not part of the log predicate language", at: start)
        case (UInt8(ascii: ":"), UInt8(ascii: "=")):
            throw error(.unsupportedConstruct, "assignment (':=') is not part of the log predicate language", at: start)
        case (UInt8(ascii: "@"), _):
            throw error(.unsupportedConstruct, "key-path operators ('@count', '@sum', …) are not part of the log predicate language", at: start)
        default:
            throw error(.syntax, "unexpected character \(Self.describeCharacter(at: start, in: bytes)): expected a key name, a literal, an operator or a parenthesis", at: start)
        }
    }

    /// `'x'`, or `U+0007` for an invisible or non-ASCII character.
    static func describeCharacter(at offset: Int, in bytes: [UInt8]) -> String {
        var end = offset + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let text = String(decoding: bytes[offset..<end], as: UTF8.self)
        guard let scalar = text.unicodeScalars.first else { return "?" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if scalar.value < 0x20 || scalar.value == 0x7F { return code }
        if scalar.isASCII { return "'\(text)'" }
        return "'\(text)' (\(code))"
    }

    private mutating func scanIdentifier() -> String {
        let start = position
        while let byte = byte(position), Self.isIdentifierByte(byte) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func scanWord() -> Token {
        let start = position
        let word = scanIdentifier()
        if word.uppercased() == "UTI", byte(position) == UInt8(ascii: "-") {
            for keyword in [Keyword.utiConformsTo, .utiEquals] {
                let spelled = Array(keyword.rawValue.utf8)
                let end = start + spelled.count
                if end <= bytes.count,
                   zip(bytes[start..<end], spelled).allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0) == $1 }),
                   byte(end).map(Self.isIdentifierByte) != true
                {
                    position = end
                    return Token(kind: .keyword(keyword), start: start, end: end)
                }
            }
        }
        if let keyword = Keyword(word: word) {
            return Token(kind: .keyword(keyword), start: start, end: position)
        }
        return Token(kind: .identifier(word), start: start, end: position)
    }
}
