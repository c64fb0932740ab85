import Glibc

/// The SD values of metadata column texts lately seen, found by the text: a table of
/// `slotCount` slots, a text's hash picking its slot, a newer text taking the slot of an older
/// one. Records of a subsystem repeat a few metadata objects among many others in between
/// (the follower reads them in commit order, all subsystems mixed), so a handful of last values
/// misses most of them; a text costs a hash and a compare instead of a JSON parse and write.
/// Texts longer than `maximumTextLength` are not kept, so the table holds at most a few MiB.
struct MetadataValueCache {
    static let slotBits = 10
    static let slotCount = 1 << slotBits
    static let maximumTextLength = 1024

    private struct Entry {
        var text: [UInt8]
        var value: [UInt8]
    }

    private var slots = [Entry?](repeating: nil, count: slotCount)

    /// The SD value kept for `text`, else the one `make` writes for it (then kept). Throws what
    /// `make` throws, keeping nothing.
    mutating func value(for text: UnsafeBufferPointer<UInt8>, make: (UnsafeBufferPointer<UInt8>) throws -> [UInt8]) rethrows -> [UInt8] {
        guard text.count <= Self.maximumTextLength else { return try make(text) }
        let slot = Self.slot(of: text)
        if let entry = slots[slot], entry.text.count == text.count,
           entry.text.withUnsafeBufferPointer({ text.isEmpty || memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }) {
            return entry.value
        }
        let value = try make(text)
        slots[slot] = Entry(text: Array(text), value: value)
        return value
    }

    /// A hash of the text read eight bytes at a time, folded to a slot.
    static func slot(of text: UnsafeBufferPointer<UInt8>) -> Int {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = UInt64(text.count) &* multiplier
        guard let base = text.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= text.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
            hash ^= hash >> 29
            offset += 8
        }
        if offset < text.count {
            var word: UInt64 = 0
            withUnsafeMutableBytes(of: &word) { $0.baseAddress!.copyMemory(from: raw + offset, byteCount: text.count - offset) }
            hash = (hash ^ word) &* multiplier
            hash ^= hash >> 29
        }
        // The top bits are the best mixed.
        return Int(truncatingIfNeeded: (hash &* multiplier) >> UInt64(64 - slotBits))
    }
}
