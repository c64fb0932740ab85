import DiagModel

extension RecordLineFormat {
    /// Appends a record's text to a text-style line with its control characters escaped
    /// (`TerminalText`: `\u{1B}` for ESC), so a record cannot drive the viewer's terminal.
    ///
    /// A newline of a record's own message (`message`) starts a new line indented by a tab: the
    /// message reads as it was written, and no line of it can pass for a record of its own,
    /// since every record's line starts at the first column with its timestamp.
    func appendText(_ text: String, message: Bool = false, to line: inout [UInt8]) {
        var text = text
        let plain = text.withUTF8 { TerminalText.isPlain($0, keepingNewlines: false) }
        if plain {
            text.withUTF8 { line.append(contentsOf: $0) }
            return
        }
        for scalar in text.unicodeScalars {
            if message && scalar == "\n" {
                line.append(0x0A)
                line.append(0x09)
            } else if TerminalText.needsEscape(scalar, keepingNewlines: false) {
                line.append(contentsOf: "\\u{\(TerminalText.hex(scalar.value))}".utf8)
            } else {
                line.append(contentsOf: String(scalar).utf8)
            }
        }
    }
}
