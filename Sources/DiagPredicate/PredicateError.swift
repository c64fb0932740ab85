/// Why a predicate was refused, where, and what would be accepted.
///
/// `description` renders the predicate line with a caret under the offending column:
/// ```
/// unknown field 'proces' — did you mean 'process'? (column 1)
///   proces == "apsd"
///   ^
/// ```
public struct PredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The family of an error; new kinds can be added without breaking callers.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, Sendable, Hashable {
            case syntax, unsupportedConstruct, unknownField, unknownValue, formatSpecifier
            case unboundVariable, invalidRegex, nestingTooDeep, invalidNumber, invalidString, invalidOptions
        }
        private let code: Code
        private init(_ code: Code) { self.code = code }

        public static let syntax = Kind(.syntax)
        /// A construct of Apple's full grammar that the log profile rejects (arithmetic, SUBQUERY, …).
        public static let unsupportedConstruct = Kind(.unsupportedConstruct)
        public static let unknownField = Kind(.unknownField)
        /// A bare word that is not a value of the symbolic field it is compared with.
        public static let unknownValue = Kind(.unknownValue)
        /// `%@`, `%K`, `%d`: there is no argument list on the command line.
        public static let formatSpecifier = Kind(.formatSpecifier)
        public static let unboundVariable = Kind(.unboundVariable)
        public static let invalidRegex = Kind(.invalidRegex)
        public static let nestingTooDeep = Kind(.nestingTooDeep)
        public static let invalidNumber = Kind(.invalidNumber)
        public static let invalidString = Kind(.invalidString)
        public static let invalidOptions = Kind(.invalidOptions)

        public var description: String { code.rawValue }
    }

    public let kind: Kind
    /// What was wrong and what is accepted instead.
    public let message: String
    /// The predicate text as given.
    public let predicate: String
    /// Offset of the problem in the predicate's UTF-8 bytes.
    public let offset: Int
    /// 1-based line and column (in characters) of the problem.
    public let line: Int
    public let column: Int

    init(_ kind: Kind, _ message: String, in predicate: String, at offset: Int) {
        self.kind = kind
        self.message = message
        self.predicate = predicate
        let utf8 = Array(predicate.utf8)
        let offset = max(0, min(offset, utf8.count))
        self.offset = offset
        var lineStart = 0
        var line = 1
        for index in 0..<offset where utf8[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        self.line = line
        self.column = String(decoding: utf8[lineStart..<offset], as: UTF8.self).count + 1
    }

    /// This error placed in `inner`, a text that this error's predicate holds from its UTF-8
    /// byte `shift` on (the user's predicate inside a caller's `(P) AND c` wrapper), with `note`
    /// after the message; nil when the error lies outside `inner`.
    public func placed(in inner: String, at shift: Int, note: String) -> PredicateError? {
        let local = offset - shift
        guard local >= 0, local <= inner.utf8.count else { return nil }
        return PredicateError(kind, message + note, in: inner, at: local)
    }

    /// The line of the predicate holding the error.
    public var sourceLine: String {
        let lines = predicate.split(separator: "\n", omittingEmptySubsequences: false)
        guard line - 1 < lines.count else { return "" }
        return String(lines[line - 1])
    }

    /// The message, the position, the source line and a caret under the column.
    public var description: String {
        let position = predicate.contains("\n") ? "line \(line), column \(column)" : "column \(column)"
        // Control characters would shift the caret; show them as blanks.
        let shown = String(sourceLine.map { $0.isASCII && ($0.asciiValue! < 0x20 || $0 == "\u{7F}") ? " " : $0 })
        let caret = String(repeating: " ", count: column - 1) + "^"
        return "\(message) (\(position))\n  \(shown)\n  \(caret)"
    }
}
