/// Text from outside (a record's message, a bundle's entry name, the first line of a file) made
/// safe to print on a terminal.
///
/// C0 control characters, DEL and C1 control characters are shown as `\u{XX}` (hexadecimal, the
/// form Swift string literals use), so that a record cannot retitle, clear or recolour the
/// viewer's terminal, move its cursor or forge lines. A tab stays a tab; a newline stays a
/// newline only where the caller asks (a record's own multi-line message), and is otherwise
/// `\u{0A}`. Printable text, including a backslash, is unchanged.
///
/// The bidirectional embedding, override and isolate controls (U+202A…U+202E, U+2066…U+2069) are
/// escaped too (`\u{202E}`): they reorder what follows them on the line, so a record could show
/// one text and hold another ("Trojan Source", CVE-2021-42574), or push its own text over the
/// columns of the next field. Right-to-left text needs none of them to read right.
public enum TerminalText {
    /// Whether `text` holds nothing to escape (the common case, checked over its UTF-8 bytes).
    public static func isPlain(_ text: String, keepingNewlines: Bool = false) -> Bool {
        var utf8 = text.utf8
        if let plain = utf8.withContiguousStorageIfAvailable({ isPlain($0, keepingNewlines: keepingNewlines) }) { return plain }
        var copy = text
        copy.makeContiguousUTF8()
        utf8 = copy.utf8
        return utf8.withContiguousStorageIfAvailable({ isPlain($0, keepingNewlines: keepingNewlines) }) ?? false
    }

    /// Whether these UTF-8 bytes hold nothing to escape.
    public static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>, keepingNewlines: Bool = false) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in bytes {
            if byte < 0x20 {
                if byte == 0x09 || (keepingNewlines && byte == 0x0A) { beforePrevious = previous; previous = byte; continue }
                return false
            }
            // DEL, and U+0080…U+009F, which UTF-8 writes as 0xC2 0x80…0x9F.
            if byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F) { return false }
            // U+202A…U+202E (0xE2 0x80 0xAA…0xAE) and U+2066…U+2069 (0xE2 0x81 0xA6…0xA9).
            if beforePrevious == 0xE2 {
                if previous == 0x80 && byte >= 0xAA && byte <= 0xAE { return false }
                if previous == 0x81 && byte >= 0xA6 && byte <= 0xA9 { return false }
            }
            beforePrevious = previous
            previous = byte
        }
        return true
    }

    /// `text` with every control character escaped (see the type's comment).
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        if isPlain(text, keepingNewlines: keepingNewlines) { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar, keepingNewlines: keepingNewlines) {
                result += "\\u{" + hex(scalar.value) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    public static func needsEscape(_ scalar: Unicode.Scalar, keepingNewlines: Bool) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x0A: !keepingNewlines
        case 0x00..<0x20, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Two hexadecimal digits for a control character, four for a bidirectional control.
    public static func hex(_ value: UInt32) -> String {
        let digits = Array("0123456789ABCDEF")
        let count = value > 0xFF ? 4 : 2
        return String((0..<count).reversed().map { digits[Int(value >> (4 * UInt32($0))) & 0xF] })
    }
}
