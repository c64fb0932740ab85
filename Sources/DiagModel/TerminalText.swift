/// Text from outside (a record's message, a bundle's entry name, the first line of a file) made
/// safe to print on a terminal.
///
/// C0 control characters, DEL and C1 control characters are shown as `\u{XX}` (hexadecimal, the
/// form Swift string literals use), so that a record cannot retitle, clear or recolour the
/// viewer's terminal, move its cursor or forge lines. A tab stays a tab; a newline stays a
/// newline only where the caller asks (a record's own multi-line message), and is otherwise
/// `\u{0A}`. Printable text, including a backslash, is unchanged.
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
        for byte in bytes {
            if byte < 0x20 {
                if byte == 0x09 || (keepingNewlines && byte == 0x0A) { previous = byte; continue }
                return false
            }
            // DEL, and U+0080…U+009F, which UTF-8 writes as 0xC2 0x80…0x9F.
            if byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F) { return false }
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
        default: false
        }
    }

    public static func hex(_ value: UInt32) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 4) & 0xF], digits[Int(value) & 0xF]])
    }
}
