import Foundation

/// Distinct byte strings numbered in the order they are first seen, without making a `String`
/// or an array per lookup: the bytes are kept once in one buffer, found again by hash (open
/// addressing). A reading thread's table of the masked messages and names of one block.
struct ByteInterner {
    private var bytes: [UInt8] = []
    /// Where each entry ends in `bytes` (it starts where the previous ends).
    private var ends: [Int] = []
    private var hashes: [UInt64] = []
    /// Entry index + 1 per slot, 0 for an empty one; a power of two long, at most half full.
    private var slots = [Int32](repeating: 0, count: 256)

    var count: Int { ends.count }

    /// The index of `key`, added at the end when it is new.
    mutating func index(of key: [UInt8]) -> Int32 {
        key.withUnsafeBufferPointer { index(of: $0) }
    }

    mutating func index(of key: UnsafeBufferPointer<UInt8>) -> Int32 {
        let hash = Self.hash(key)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let entry = Int(slots[slot] - 1)
            if hashes[entry] == hash, equals(entry, key) { return Int32(entry) }
            slot = (slot + 1) & mask
        }
        bytes.append(contentsOf: key)
        ends.append(bytes.count)
        hashes.append(hash)
        slots[slot] = Int32(ends.count)
        if ends.count * 2 > slots.count { grow() }
        return Int32(ends.count - 1)
    }

    /// The entries as strings, in their order.
    func strings() -> [String] {
        var start = 0
        return ends.map { end in
            defer { start = end }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        for index in slots.indices { slots[index] = 0 }
    }

    private func equals(_ entry: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = entry == 0 ? 0 : ends[entry - 1]
        guard ends[entry] - start == key.count else { return false }
        return bytes.withUnsafeBufferPointer { stored in
            key.isEmpty || memcmp(stored.baseAddress! + start, key.baseAddress!, key.count) == 0
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for entry in hashes.indices {
            var slot = Int(truncatingIfNeeded: hashes[entry]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry + 1)
        }
    }

    /// Eight bytes at a time, each word multiplied in and folded: a table's hash, not a
    /// fingerprint (equal hashes are compared byte by byte).
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.count)
        let raw = UnsafeRawBufferPointer(key)
        var offset = 0
        while offset + 8 <= raw.count {
            hash = mix(hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < raw.count {
            tail |= UInt64(raw[offset]) << shift
            shift += 8
            offset += 1
        }
        return mix(hash ^ tail)
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: 0xBF58_476D_1CE4_E5B9)
        return product.high ^ product.low
    }
}
