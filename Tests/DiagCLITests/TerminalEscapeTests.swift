import DiagOutput
import Foundation
import Testing
import TestSupport

/// Record text and error messages never reach the terminal raw (issue 13, item 9).
struct TerminalEscapeTests {
    /// A record whose every text field carries a control sequence: retitle the terminal (OSC 0,
    /// ended by BEL), clear it (CSI 2J), a C1 CSI (U+009B), DEL, a carriage return, and a forged
    /// second line.
    static let hostileLine = #"{"eventMessage":"title \u001b]0;owned\u0007 clear \u001b[2J c1 \u009b31m del \u007f cr \rgone\n2026-11-29 09:40:01.000000+0000 0x1 Fault 0x0 1 0 forged: line","eventType":"logEvent","subsystem":"com.\u001b[31mexample","category":"c\u0007t","sender":"s\u001bender","timestamp":"2026-11-29 10:40:01.123456+0100","messageType":"Default","processID":4242,"processImagePath":"/usr/libexec/tr\u001bansport","threadID":1}"# + "\n"

    static func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x09, 0x0A: false
            case 0x00..<0x20, 0x7F...0x9F: true
            default: false
            }
        }
    }

    @Test(arguments: ["default", "compact", "syslog"])
    func textStylesEscapeControlCharacters(style: String) throws {
        let folder = try TemporaryDirectory("diag-escape")
        let file = try folder.write("hostile.ndjson", Self.hostileLine)
        let shown = try run(BuiltProducts.path("diag"), ["show", "--style", style, "--color", "none", file])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(!Self.hasRawControl(shown.stdout), "\(shown.stdout.debugDescription)")
        #expect(shown.stdout.contains(#"title \u{1B}]0;owned\u{07} clear \u{1B}[2J c1 \u{9B}31m del \u{7F} cr \u{0D}gone"#), "\(shown.stdout)")
        // The message's own newline starts an indented line: it cannot pass for a record.
        #expect(shown.stdout.contains("\n\t2026-11-29 09:40:01.000000+0000 0x1 Fault"), "\(shown.stdout.debugDescription)")
        #expect(!shown.stdout.contains("\n2026-11-29 09:40:01.000000+0000 0x1 Fault"))
        #expect(shown.stdout.contains(#"com.\u{1B}[31mexample"#) || style == "compact" && shown.stdout.contains("com."), "\(shown.stdout)")
    }

    /// A right-to-left override makes `txt.exe` of `exe.txt` on the screen; the isolates and
    /// embeddings reorder text the same way. Right-to-left text itself is left as it is.
    @Test(arguments: ["default", "compact", "syslog"])
    func bidirectionalControlsAreShownEscaped(style: String) throws {
        let folder = try TemporaryDirectory("diag-escape")
        let line = #"{"eventMessage":"open ‮txt.exe‬ then ⁦iso⁩ ‪emb‫ ‭ שלום","timestamp":"2026-11-29 10:40:01.123456+0100","messageType":"Default","processID":1,"threadID":1,"subsystem":"s","category":"c","process":"p"}"# + "\n"
        let file = try folder.write("bidi.ndjson", line)
        let shown = try run(BuiltProducts.path("diag"), ["show", "--style", style, "--color", "none", file])
        #expect(shown.status == 0, "\(shown.stderr)")
        let raw = shown.stdout.unicodeScalars.filter { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }
        #expect(raw.isEmpty, "\(shown.stdout.debugDescription)")
        #expect(shown.stdout.contains(#"open \u{202E}txt.exe\u{202C} then \u{2066}iso\u{2069} \u{202A}emb\u{202B} \u{202D} שלום"#), "\(shown.stdout)")
    }

    @Test func jsonStylesStillCarryTheTextExactly() throws {
        let folder = try TemporaryDirectory("diag-escape")
        let file = try folder.write("hostile.ndjson", Self.hostileLine)
        let shown = try run(BuiltProducts.path("diag"), ["show", "--style", "ndjson", file])
        #expect(shown.status == 0)
        #expect(!Self.hasRawControl(shown.stdout))
        #expect(shown.stdout.contains(#"\u001b]0;owned\u0007"#), "\(shown.stdout)")
    }

    @Test func theFirstLineOfAnUnknownFileIsEscapedInTheError() throws {
        let folder = try TemporaryDirectory("diag-escape")
        let file = try folder.write("unknown.txt", "\u{1B}]0;owned\u{07}\u{1B}[2J not a log line\nsecond\n")
        let shown = try run(BuiltProducts.path("diag"), ["show", file])
        #expect(shown.status == 65, "\(shown.stderr)")
        #expect(!Self.hasRawControl(shown.stderr), "\(shown.stderr.debugDescription)")
        #expect(shown.stderr.contains(#"\u{1B}]0;owned\u{07}\u{1B}[2J not a log line"#), "\(shown.stderr)")
    }

    @Test func noColorTurnsAutomaticColourOff() {
        #expect(ColorMode.auto.enabled(isTerminal: true, environment: [:]))
        #expect(!ColorMode.auto.enabled(isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(ColorMode.auto.enabled(isTerminal: true, environment: ["NO_COLOR": ""]))
        #expect(ColorMode.always.enabled(isTerminal: false, environment: ["NO_COLOR": "1"]))
    }
}
