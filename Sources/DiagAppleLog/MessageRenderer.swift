import Foundation

/// Composes a message from an os_log format string and the values a tracepoint stored, the
/// way Apple's `log` shows it: `<private>` for redacted values, `(null)` for NULL strings,
/// `<decode: missing data>` for a conversion with no value left.
public enum MessageRenderer {
    /// The widest field and longest precision honoured: both can come from the file (`%*d`,
    /// `%.*s`), and a hostile 2^31 must not become a 2 GB string.
    static let maximumFieldWidth = 4096
    /// Past this, the message is cut and says so (Apple's own limit on a message's data is 64 KiB).
    static let maximumMessageBytes = 256 << 10

    public static func render(format: String, values: [FirehoseValue]) -> String {
        var output = ""
        var next = 0
        func take() -> FirehoseValue? {
            guard next < values.count else { return nil }
            defer { next += 1 }
            return values[next]
        }
        for piece in FormatSpecifier.parse(format) {
            switch piece {
            case .text(let text):
                output += text
            case .specifier(var specifier):
                if specifier.width == -1 {
                    if case .count(let width)? = peek(values, next) { specifier.width = width; next += 1 }
                    else if case .scalar(let width, _)? = peek(values, next) { specifier.width = Int(truncatingIfNeeded: Int32(truncatingIfNeeded: width)); next += 1 }
                    else { specifier.width = nil }
                }
                // A precision item (`%.*s`, and sometimes `%.16s`) comes before its value.
                if case .count(let precision)? = peek(values, next) {
                    next += 1
                    if specifier.precision == -1 || specifier.precision == nil { specifier.precision = precision }
                }
                if specifier.precision == -1 { specifier.precision = nil }
                if specifier.width.map({ $0 < 0 }) ?? false {
                    specifier.leftJustify = true
                    specifier.width = specifier.width.map { -$0 }
                }
                specifier.width = specifier.width.map { min($0, maximumFieldWidth) }
                specifier.precision = specifier.precision.map { $0 < 0 ? nil : min($0, maximumFieldWidth) } ?? nil
                guard let value = take() else {
                    output += "<decode: missing data>"
                    continue
                }
                output += ValueFormatter.format(value, as: specifier)
            }
            if output.utf8.count > maximumMessageBytes {
                return String(decoding: Array(output.utf8.prefix(maximumMessageBytes)), as: UTF8.self) + "<decode: message cut at \(maximumMessageBytes) bytes>"
            }
        }
        return output
    }

    private static func peek(_ values: [FirehoseValue], _ index: Int) -> FirehoseValue? {
        index < values.count ? values[index] : nil
    }
}

/// One value under one conversion.
enum ValueFormatter {
    static func format(_ value: FirehoseValue, as specifier: FormatSpecifier) -> String {
        switch value {
        case .privateValue:
            return "<private>"
        case .damaged(let reason):
            return "<decode: \(reason)>"
        case .count(let count):
            return pad(String(count), specifier)
        case .string(let text):
            if let decoded = ValueDecoders.decode(string: text, decoder: specifier.valueDecoder) { return decoded }
            guard var text else { return pad("(null)", specifier) }
            if let precision = specifier.precision, precision < text.count, specifier.conversion != "@" || precision > 0 {
                text = String(text.prefix(precision))
            }
            return pad(text, specifier)
        case .data(let bytes):
            guard let bytes else { return pad("(null)", specifier) }
            if let decoded = ValueDecoders.decode(data: bytes, decoder: specifier.valueDecoder) { return decoded }
            let shown = specifier.precision.map { Array(bytes.prefix($0)) } ?? bytes
            return "<" + shown.map { String(format: "%02x", $0) }.joined() + ">"
        case .scalar(let bits, let byteCount):
            if let decoded = ValueDecoders.decode(scalar: bits, byteCount: byteCount, decoder: specifier.valueDecoder) { return decoded }
            return formatScalar(bits, byteCount: byteCount, specifier)
        }
    }

    static func formatScalar(_ bits: UInt64, byteCount: Int, _ specifier: FormatSpecifier) -> String {
        let width = max(1, min(byteCount, 8))
        let mask: UInt64 = width == 8 ? .max : (1 << (8 * UInt64(width))) - 1
        let unsigned = bits & mask
        let signBit: UInt64 = 1 << (8 * UInt64(width) - 1)
        let signed = unsigned & signBit != 0 ? Int64(bitPattern: unsigned | ~mask) : Int64(bitPattern: unsigned)
        switch specifier.conversion {
        case "d", "i", "D":
            return integer(signed < 0 ? "-" : "", signed.magnitude.description, specifier)
        case "u", "U":
            return integer("", unsigned.description, specifier)
        case "x", "X", "p":
            var digits = String(unsigned, radix: 16, uppercase: specifier.conversion == "X")
            if let precision = specifier.precision, digits.count < precision { digits = String(repeating: "0", count: precision - digits.count) + digits }
            let prefix = specifier.conversion == "p" || (specifier.alternate && unsigned != 0) ? (specifier.conversion == "X" ? "0X" : "0x") : ""
            return numberPad(prefix, digits, specifier)
        case "o", "O":
            return integer(specifier.alternate && unsigned != 0 ? "0" : "", String(unsigned, radix: 8), specifier)
        case "c", "C":
            return pad(String(UnicodeScalar(UInt32(truncatingIfNeeded: unsigned)).map(Character.init) ?? "?"), specifier)
        case "e", "E", "f", "F", "g", "G", "a", "A":
            let double = width == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: unsigned))) : Double(bitPattern: unsigned)
            var spec = "%"
            if specifier.leftJustify { spec += "-" }
            if specifier.plusSign { spec += "+" }
            if specifier.zeroPad { spec += "0" }
            if let width = specifier.width { spec += String(width) }
            if let precision = specifier.precision { spec += ".\(precision)" }
            return String(format: spec + String(specifier.conversion), double)
        case "m":
            return DarwinErrno.message(Int(signed))
        case "s", "S", "@", "P":
            // A scalar where a string was expected: Apple shows the number.
            return pad(signed.description, specifier)
        default:
            return "<decode: unsupported conversion \(specifier.conversion)>"
        }
    }

    private static func integer(_ sign: String, _ digits: String, _ specifier: FormatSpecifier) -> String {
        var digits = digits
        if let precision = specifier.precision, digits.count < precision {
            digits = String(repeating: "0", count: precision - digits.count) + digits
        }
        let shownSign = sign.isEmpty && specifier.conversion != "u" && specifier.conversion != "U"
            ? (specifier.plusSign ? "+" : specifier.spaceSign ? " " : "") : sign
        return numberPad(shownSign, digits, specifier)
    }

    private static func numberPad(_ prefix: String, _ digits: String, _ specifier: FormatSpecifier) -> String {
        guard let width = specifier.width, prefix.count + digits.count < width else { return prefix + digits }
        let fill = width - prefix.count - digits.count
        if specifier.leftJustify { return prefix + digits + String(repeating: " ", count: fill) }
        if specifier.zeroPad && specifier.precision == nil { return prefix + String(repeating: "0", count: fill) + digits }
        return String(repeating: " ", count: fill) + prefix + digits
    }

    static func pad(_ text: String, _ specifier: FormatSpecifier) -> String {
        guard let width = specifier.width, text.count < width else { return text }
        let fill = String(repeating: " ", count: width - text.count)
        return specifier.leftJustify ? text + fill : fill + text
    }
}
