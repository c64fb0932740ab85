import Foundation

/// Gives each distinct text a small number, looked up by its UTF-8 bytes: counting a store's
/// records by process, sender and subsystem then makes no `String` per record, only one per
/// distinct value. Number 0 stands for NULL.
struct TextInterner {
    /// The text of each number; `texts[0]` is nil (NULL).
    private(set) var texts: [String?] = [nil]
    /// Numbers by the hash of their bytes; a bucket holds every number whose bytes hash alike.
    private var buckets: [Int: [Int32]] = [:]
    private var bytes: [[UInt8]] = [[]]
    /// The number found last, tried first: records come in runs of one value.
    private var last: Int32 = 0
    /// Numbers last found for a cheap mix of a text's length and three of its bytes, tried before
    /// the full hash: records of a few components interleave, so `last` alone often misses.
    private var recent = [Int32](repeating: 0, count: 64)

    /// The number of `text` (nil for NULL), given a new one if the bytes were never seen.
    mutating func number(_ text: UnsafeBufferPointer<UInt8>?) -> Int32 {
        guard let text else { return 0 }
        if last != 0, Self.equal(bytes[Int(last)], text) { return last }
        let slot = Self.slot(text)
        let guess = recent[slot]
        if guess != 0, Self.equal(bytes[Int(guess)], text) {
            last = guess
            return guess
        }
        let found = lookUp(text)
        recent[slot] = found
        last = found
        return found
    }

    private static func slot(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        let count = text.count
        guard count > 0 else { return 0 }
        let mix = count &* 31 &+ Int(text[0]) &* 7 &+ Int(text[count / 2]) &* 3 &+ Int(text[count - 1])
        return mix & 63
    }

    private mutating func lookUp(_ text: UnsafeBufferPointer<UInt8>) -> Int32 {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(text))
        let hash = hasher.finalize()
        if let candidates = buckets[hash] {
            for candidate in candidates where Self.equal(bytes[Int(candidate)], text) { return candidate }
        }
        let number = Int32(texts.count)
        texts.append(String(decoding: text, as: UTF8.self))
        bytes.append(Array(text))
        buckets[hash, default: []].append(number)
        return number
    }

    private static func equal(_ known: [UInt8], _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        known.count == text.count && known.withUnsafeBufferPointer { known in
            known.isEmpty || memcmp(known.baseAddress!, text.baseAddress!, text.count) == 0
        }
    }
}
