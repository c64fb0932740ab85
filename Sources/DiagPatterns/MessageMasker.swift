/// Turns a message into the tokens the miner compares: words split at white space, the parts
/// of a word that vary in real logs replaced by `<*>`.
///
/// One default for every log, no per-dataset settings. A part of a word is variable when it
/// holds a digit (numbers, hex, UUIDs, IPv4 and IPv6 addresses, host:port, times, dates,
/// durations and sizes with units, identifiers like blk_-42 or attempt_01_m_5), when it is a
/// path or URL (`/var/log`, `~/x`, `run/a.sock`, `http://h/p`), the value of a `key=value`, or a quoted
/// value of one word. Runs of variables separated only by punctuation become one `<*>`, and so
/// do runs of variable words, so that `12:00:01.5` and `1 2 3` are one variable whatever
/// their length.
public enum MessageMasker {
    public static let wildcard = "<*>"

    /// The masked words of `message`, joined by one space (words never contain one).
    public static func mask(_ message: String) -> String {
        var message = message
        var output: [UInt8] = []
        message.withUTF8 { mask(utf8: $0, into: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The masked words of a message's UTF-8 bytes, in `output` (emptied first, its capacity
    /// kept): what `mask` returns, without making a `String` of the message or of the result.
    public static func mask(utf8 bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.removeAll(keepingCapacity: true)
        output.reserveCapacity(bytes.count)
        var previousWordWasWildcard = false
        var index = 0
        while index < bytes.count {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count else { break }
            let start = index
            while index < bytes.count, !isSpace(bytes[index]) { index += 1 }
            let word = UnsafeBufferPointer(rebasing: bytes[start..<index])
            if endsWithWildcard(output, from: 0), let unitLength = unitPrefixLength(word) {
                // `5 ms`, `64 KB,`: the unit belongs to the number before it.
                output.append(contentsOf: UnsafeBufferPointer(rebasing: word[unitLength...]))
                continue
            }
            let wordStart = output.count
            if wordStart > 0 { output.append(0x20) }
            let isWildcard = appendMaskedWord(word, to: &output)
            if isWildcard, previousWordWasWildcard {
                output.removeSubrange(wordStart...)
            }
            previousWordWasWildcard = isWildcard
        }
    }

    /// The words of a masked message.
    public static func words(_ masked: String) -> [Substring] {
        masked.split(separator: " ", omittingEmptySubsequences: true)
    }

    /// Appends the masked form of one word; true when the whole word became `<*>`.
    private static func appendMaskedWord(_ word: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> Bool {
        if isWholeVariable(word) {
            appendWildcardBytes(to: &output)
            return true
        }
        let begin = output.count
        var segmentStart = 0
        var afterEquals = false
        var index = 0
        // Segments are the runs between delimiters; each is kept or masked on its own.
        while index <= word.count {
            let atEnd = index == word.count
            if atEnd || isDelimiter(word[index]) {
                if index > segmentStart {
                    let segment = UnsafeBufferPointer(rebasing: word[segmentStart..<index])
                    let quoted = segmentStart > 0 && isQuote(word[segmentStart - 1])
                        && !atEnd && word[index] == word[segmentStart - 1]
                    if afterEquals || quoted || isVariableSegment(segment) {
                        appendWildcard(to: &output, since: begin)
                    } else {
                        output.append(contentsOf: segment)
                    }
                }
                if !atEnd {
                    afterEquals = word[index] == UInt8(ascii: "=")
                    output.append(word[index])
                }
                segmentStart = index + 1
            }
            index += 1
        }
        return output.count - begin == 3 && endsWithWildcard(output, from: begin)
    }

    /// Appends `<*>`, or absorbs it into a `<*>` separated from it by joining punctuation only.
    private static func appendWildcard(to output: inout [UInt8], since begin: Int) {
        var index = output.count
        while index > begin, isJoiner(output[index - 1]) { index -= 1 }
        if index - begin >= 3, output[index - 3] == 0x3C, output[index - 2] == 0x2A, output[index - 1] == 0x3E {
            output.removeSubrange(index...)
            return
        }
        appendWildcardBytes(to: &output)
    }

    /// `<*>`, byte by byte: the hot path reads no shared constant.
    @inline(__always)
    private static func appendWildcardBytes(to output: inout [UInt8]) {
        output.append(0x3C)
        output.append(0x2A)
        output.append(0x3E)
    }

    /// Whether `output` ends with `<*>` after `begin`.
    @inline(__always)
    private static func endsWithWildcard(_ output: [UInt8], from begin: Int) -> Bool {
        let count = output.count
        return count - begin >= 3 && output[count - 3] == 0x3C && output[count - 2] == 0x2A && output[count - 1] == 0x3E
    }

    /// URLs and paths are variable whole, slashes and all.
    private static func isWholeVariable(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        while start < word.count, isOpening(word[start]) { start += 1 }
        guard start < word.count else { return false }
        let first = word[start]
        let rest = word.count - start
        if first == UInt8(ascii: "/"), rest > 1 { return true }
        if first == UInt8(ascii: "~") || first == UInt8(ascii: "."), rest > 2, word[start + 1] == UInt8(ascii: "/") || (word[start + 1] == UInt8(ascii: ".") && word[start + 2] == UInt8(ascii: "/")) {
            return true
        }
        // Relative paths: two slashes, or one and a file extension after it (`logs/a.txt`).
        var slashes = 0
        var dotAfterSlash = false
        for byte in word[start...] {
            if byte == UInt8(ascii: "/") { slashes += 1 } else if byte == UInt8(ascii: "."), slashes > 0 { dotAfterSlash = true }
        }
        if slashes >= 2 || (slashes == 1 && dotAfterSlash) { return true }
        // scheme://
        var index = start
        while index < word.count, isLetter(word[index]) { index += 1 }
        return index > start && index + 2 < word.count && word[index] == UInt8(ascii: ":")
            && word[index + 1] == UInt8(ascii: "/") && word[index + 2] == UInt8(ascii: "/")
    }

    private static func isVariableSegment(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in segment where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { return true }
        return segment.first == UInt8(ascii: "/") && segment.count > 1
    }

    /// The length of a unit of time or size (lower-cased: ns, us, µs, ms, s, sec, secs, second,
    /// seconds, min, mins, minutes, h, hours, b, kb, mb, gb, tb, kib, mib, gib, tib, byte,
    /// bytes) that only punctuation follows, or nil.
    private static func unitPrefixLength(_ word: UnsafeBufferPointer<UInt8>) -> Int? {
        var length = 0
        while length < word.count, isLetter(word[length]) || word[length] >= 0x80 { length += 1 }
        guard length > 0, length <= 7 else { return nil }
        for byte in word[length...] where !isJoiner(byte) && byte != UInt8(ascii: ";") && byte != UInt8(ascii: ")") && byte != UInt8(ascii: "]") {
            return nil
        }
        // The lower-cased bytes, the first in the lowest byte: compared as one number.
        var code: UInt64 = 0
        for index in 0..<length {
            let byte = word[index]
            code |= UInt64(isLetter(byte) ? byte | 0x20 : byte) << (8 * UInt64(index))
        }
        switch code {
        case 0x736E, 0x7375, 0x73B5C2, 0x736D,  // ns us µs ms
             0x73, 0x636573, 0x73636573, 0x646E6F636573, 0x73646E6F636573,  // s sec secs second seconds
             0x6E696D, 0x736E696D, 0x736574756E696D, 0x68, 0x7372756F68,  // min mins minutes h hours
             0x62, 0x626B, 0x626D, 0x6267, 0x6274,  // b kb mb gb tb
             0x62696B, 0x62696D, 0x626967, 0x626974, 0x65747962, 0x7365747962:  // kib mib gib tib byte bytes
            return length
        default:
            return nil
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// Punctuation that separates the parts of a word: `key=value`, `a:b`, `f(x)`, `[a,b]`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "|"),
             UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
             UInt8(ascii: "}"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"),
             UInt8(ascii: "#"), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }

    /// Punctuation inside one value: the colons of a time, the commas of a list, the dots of a version.
    private static func isJoiner(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "@")
    }

    private static func isOpening(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{")
            || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    private static func isQuote(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}
