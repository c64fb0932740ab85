// The stdlib's Unicode SPI gives NFD (`_nfd`) and full default case folding (`_caseFolded`,
// CaseFolding.txt statuses C+F, no Turkic T mappings) without Foundation; Swift's Regex uses it.
@_spi(_Unicode) import Swift

/// The string folding of PREDICATES.md §5.3, shared by the predicate evaluator (`[c]`, `[d]`)
/// and the message search index, so that both fold text the same way.
public enum TextFolding {
    /// Folds `text` for comparison:
    /// 1. neither option: `text` unchanged (comparisons are exact, by scalars);
    /// 2. otherwise canonical decomposition (NFD);
    /// 3. `caseInsensitive`: full default case folding (`ß`→`ss`, `ﬁ`→`fi`, `Σ`/`ς`→`σ`,
    ///    `İ`→`i`+U+0307, `ı` unchanged), then NFD again;
    /// 4. `diacriticInsensitive`: every nonspacing mark (Mn) below U+0510 removed.
    ///
    /// ASCII text takes a byte-level path: it is what almost every log message is.
    public static func fold(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        guard caseInsensitive || diacriticInsensitive else { return text }
        if let ascii = foldASCII(text, caseInsensitive: caseInsensitive) { return ascii }
        return foldByRuns(text, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
    }

    /// Text that is mostly ASCII (a log line with one `…` or `é`): ASCII bytes are lowered in
    /// place and only the runs of other characters go through `foldUnicode`. The result is the
    /// same as folding the whole text, because every step is local between ASCII characters:
    /// an ASCII character is its own NFD, has canonical combining class 0 (so canonical
    /// reordering never moves a mark across it), folds to itself lowered, and is no diacritic.
    /// Building one `String` per run instead of one `UnicodeScalarView` per message halves a
    /// `message CONTAINS[cd]` scan over such lines.
    static func foldByRuns(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        var text = text
        return text.withUTF8 { utf8 -> String in
            var output: [UInt8] = []
            output.reserveCapacity(utf8.count + 16)
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                if byte < 0x80 {
                    output.append(caseInsensitive && byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte)
                    index += 1
                    continue
                }
                var end = index + 1
                while end < utf8.count, utf8[end] >= 0x80 { end += 1 }
                // Bytes of 0x80 and above never split an ASCII byte out of a sequence: the run is whole UTF-8.
                let run = String(decoding: UnsafeBufferPointer(rebasing: utf8[index..<end]), as: UTF8.self)
                output.append(contentsOf: foldUnicode(run, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive).utf8)
                index = end
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// Whether `scalar` is a diacritic in CoreFoundation's sense: a nonspacing mark below U+0510.
    public static func isFoldedDiacritic(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x300 && scalar.value < 0x510 && scalar.properties.generalCategory == .nonspacingMark
    }

    /// The folded text when `text` is all ASCII (no diacritics exist there); nil otherwise.
    /// Text with nothing to lower is returned as is, without a copy.
    private static func foldASCII(_ text: String, caseInsensitive: Bool) -> String? {
        var text = text
        var hasUppercase = false
        let isASCII = text.withUTF8 { utf8 -> Bool in
            for byte in utf8 {
                if byte >= 0x80 { return false }
                if byte &- UInt8(ascii: "A") < 26 { hasUppercase = true }
            }
            return true
        }
        guard isASCII else { return nil }
        guard caseInsensitive, hasUppercase else { return text }
        return text.withUTF8 { utf8 in
            String(unsafeUninitializedCapacity: utf8.count) { buffer in
                for (index, byte) in utf8.enumerated() {
                    buffer[index] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                }
                return utf8.count
            }
        }
    }

    static func foldUnicode(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        var decomposed = String.UnicodeScalarView()
        if caseInsensitive {
            var folded = String.UnicodeScalarView()
            var changed = false
            for scalar in text._nfd {
                if scalar.value < 0x80 {
                    folded.append(scalar.value &- 0x41 < 26 ? Unicode.Scalar(UInt8(scalar.value) | 0x20) : scalar)
                    continue
                }
                let mapping = scalar.properties._caseFolded.unicodeScalars
                if mapping.count == 1, mapping.first == scalar {
                    folded.append(scalar)
                } else {
                    folded.append(contentsOf: mapping)
                    changed = true
                }
            }
            // A folding can yield a precomposed letter or marks out of canonical order.
            if changed {
                for scalar in String(folded)._nfd { decomposed.append(scalar) }
            } else {
                decomposed = folded
            }
        } else {
            for scalar in text._nfd { decomposed.append(scalar) }
        }
        if diacriticInsensitive {
            decomposed.removeAll(where: isFoldedDiacritic)
        }
        return String(decomposed)
    }
}
