/// Whether an interpolated value may be stored as is, like `OSLogPrivacy`.
///
/// Dynamic values are private unless marked public: the stored message shows `<private>`.
public enum LogPrivacy: Sendable, Hashable {
    /// Stored and shown as is.
    case `public`
    /// Replaced by `<private>` in the stored message.
    case `private`
    /// Replaced by a stable hash (`<mask.hash: 1a2b3c4d>`), so equal values can be matched
    /// across records without revealing them.
    case privateHashed

    /// The `%{public}@`-style placeholder that stands for the value in `formatString`.
    var placeholder: String {
        switch self {
        case .public: "%{public}@"
        case .private: "%{private}@"
        case .privateHashed: "%{private, mask.hash}@"
        }
    }
}

/// A log message built by string interpolation: the message with private values redacted,
/// and its format string with a placeholder for each interpolated value.
public struct LogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral, Sendable {
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var message = ""
        var format = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            message.reserveCapacity(literalCapacity + interpolationCount * 8)
            format.reserveCapacity(literalCapacity + interpolationCount * 12)
        }

        public mutating func appendLiteral(_ literal: String) {
            message += literal
            format += literal.replacingOccurrencesOfPercent
        }

        /// A value, private unless `privacy: .public`.
        public mutating func appendInterpolation<Value>(_ value: @autoclosure () -> Value, privacy: LogPrivacy = .private) {
            append(String(describing: value()), privacy: privacy)
        }

        /// A string, private unless `privacy: .public`.
        public mutating func appendInterpolation(_ value: @autoclosure () -> String, privacy: LogPrivacy = .private) {
            append(value(), privacy: privacy)
        }

        private mutating func append(_ text: String, privacy: LogPrivacy) {
            format += privacy.placeholder
            switch privacy {
            case .public: message += text
            case .private: message += "<private>"
            case .privateHashed: message += "<mask.hash: \(StableHash.hex(of: text))>"
            }
        }
    }

    /// The message as stored: literals, public values, and `<private>` for the rest.
    public let message: String
    /// The format: literals (with `%` doubled) and a placeholder per value.
    public let formatString: String

    public init(stringInterpolation: StringInterpolation) {
        message = stringInterpolation.message
        formatString = stringInterpolation.format
    }

    public init(stringLiteral value: String) {
        message = value
        formatString = value.replacingOccurrencesOfPercent
    }
}

extension String {
    /// A literal `%` is written `%%` in a format string, as in printf.
    fileprivate var replacingOccurrencesOfPercent: String {
        contains("%") ? split(separator: "%", omittingEmptySubsequences: false).joined(separator: "%%") : self
    }
}

/// FNV-1a over UTF-8: stable across processes and runs (unlike `Hasher`), for `privateHashed`.
enum StableHash {
    static func hex(of text: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
