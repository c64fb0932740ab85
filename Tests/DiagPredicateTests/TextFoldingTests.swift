@testable import DiagModel
import Testing

@Suite("TextFolding (PREDICATES.md §5.3)")
struct TextFoldingTests {
    private func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    private func fold(_ text: String, c: Bool = false, d: Bool = false) -> [UInt32] {
        scalars(TextFolding.fold(text, caseInsensitive: c, diacriticInsensitive: d))
    }

    @Test func noOptionsLeavesTextUntouched() {
        #expect(fold("Café") == scalars("Caf\u{E9}"))
        #expect(fold("Cafe\u{301}") == scalars("Cafe\u{301}"))
    }

    @Test func asciiFastPath() {
        #expect(TextFolding.fold("Hello, WORLD [42] @_z", caseInsensitive: true, diacriticInsensitive: false) == "hello, world [42] @_z")
        #expect(TextFolding.fold("Hello", caseInsensitive: false, diacriticInsensitive: true) == "Hello")
        #expect(TextFolding.fold("", caseInsensitive: true, diacriticInsensitive: true) == "")
        #expect(TextFolding.fold("a\0B", caseInsensitive: true, diacriticInsensitive: false) == "a\0b")
    }

    /// Folding a mostly-ASCII line run by run (the fast path) gives what folding it whole gives,
    /// for random mixes of ASCII, precomposed letters, marks in and out of canonical order,
    /// letters whose folding expands or composes, and NULs.
    @Test func foldingByRunsEqualsFoldingWhole() {
        let pieces: [String] = ["a", "Z", " ", "0", "\0", "é", "E\u{301}", "\u{301}", "\u{323}\u{301}", "\u{301}\u{323}",
                                "ß", "\u{1E9E}", "\u{FB01}", "Σ", "ς", "\u{130}", "\u{131}", "\u{212A}", "…", "日本",
                                "\u{345}", "Ǆ", "ΐ", "\u{1F600}", "Å", "A\u{30A}", "\u{FF21}", "ǰ"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for (c, d) in [(true, false), (false, true), (true, true)] {
                let whole = TextFolding.foldUnicode(text, caseInsensitive: c, diacriticInsensitive: d)
                let runs = TextFolding.foldByRuns(text, caseInsensitive: c, diacriticInsensitive: d)
                #expect(Array(runs.unicodeScalars) == Array(whole.unicodeScalars), "\(text.unicodeScalars.map { String($0.value, radix: 16) }) c:\(c) d:\(d)")
            }
        }
    }

    @Test func fullCaseFolding() {
        #expect(fold("Straße", c: true) == scalars("strasse"))
        #expect(fold("STRASSE", c: true) == fold("Straße", c: true))
        #expect(fold("\u{1E9E}", c: true) == scalars("ss"))
        #expect(fold("\u{FB01}le", c: true) == scalars("file"))
        #expect(fold("ΣΑΣ", c: true) == scalars("σασ"))
        #expect(fold("ς", c: true) == scalars("σ"))
        #expect(fold("\u{130}", c: true) == [0x69, 0x307])
        #expect(fold("\u{212A}", c: true) == scalars("k"))
    }

    @Test func turkicAndWidthAreNotFolded() {
        #expect(fold("\u{131}", c: true) == [0x131])
        #expect(fold("I", c: true) == scalars("i"))
        #expect(fold("ＡＢＣ", c: true) != scalars("abc"))
    }

    @Test func caseFoldingDecomposes() {
        #expect(fold("É", c: true) == [0x65, 0x301])
        #expect(fold("Caf\u{E9}", c: true) == fold("CAFE\u{301}", c: true))
        // U+1FBE folds to ι only through its canonical decomposition.
        #expect(fold("\u{1FBE}", c: true) == [0x3B9])
    }

    @Test func diacriticRemoval() {
        #expect(fold("Café ÉCOLE Ångström", d: true) == scalars("Cafe ECOLE Angstrom"))
        #expect(fold("über", d: true) == scalars("uber"))
        #expect(fold("\u{130}", c: true, d: true) == scalars("i"))
        #expect(fold("Øresund łódź đ æ ß", d: true) == scalars("Øresund łodz đ æ ß"))
        #expect(fold("Café ÉCOLE straße Ångström ﬁ", c: true, d: true) == scalars("cafe ecole strasse angstrom fi"))
    }

    @Test func marksAtOrAboveU0510AreKept() {
        // U+0591 HEBREW ACCENT ETNAHTA is Mn but above U+0510; U+0903 is a spacing mark.
        #expect(fold("\u{5D0}\u{591}", d: true) == [0x5D0, 0x591])
        #expect(fold("\u{915}\u{903}", d: true) == [0x915, 0x903])
    }
}
