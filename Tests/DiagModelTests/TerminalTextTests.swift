import DiagModel
import Testing

struct TerminalTextTests {
    @Test func controlCharactersAreEscapedWithTwoDigits() {
        #expect(TerminalText.escaped("a\u{1B}[2Jb\u{7F}\u{9B}") == #"a\u{1B}[2Jb\u{7F}\u{9B}"#)
        #expect(TerminalText.escaped("tab\tstays") == "tab\tstays")
        #expect(TerminalText.escaped("two\nlines") == #"two\u{0A}lines"#)
        #expect(TerminalText.escaped("two\nlines", keepingNewlines: true) == "two\nlines")
    }

    @Test func bidirectionalControlsAreEscapedWithFourDigits() {
        for value in Array(0x202A...0x202E) + Array(0x2066...0x2069) {
            let scalar = Unicode.Scalar(UInt32(value))!
            let text = "x" + String(Character(scalar)) + "y"
            #expect(!TerminalText.isPlain(text))
            #expect(TerminalText.escaped(text) == "x\\u{\(String(value, radix: 16, uppercase: true))}y")
        }
    }

    @Test func neighboursOfTheBidirectionalControlsArePlain() {
        // U+2029 and U+202F, U+2065 and U+206A share the first UTF-8 bytes with the controls;
        // right-to-left letters and marks that only mark direction (U+200F) stay as they are.
        for text in ["\u{2029}", "\u{202F}", "\u{2065}", "\u{206A}", "שלום", "مرحبا", "\u{200F}", "€", "…"] {
            #expect(TerminalText.isPlain(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(TerminalText.escaped(text) == text)
        }
    }
}
