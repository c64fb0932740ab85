@testable import DiagBundle
import Testing

/// Vectors from FIPS 180-4's examples (NIST CSRC "Example Values") and RFC 6234.
struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func knownVectors(message: String, expected: String) {
        #expect(SHA256.hexDigest(of: Array(message.utf8)) == expected)
        var portable = SHA256(usesHardware: false)
        portable.update(Array(message.utf8))
        #expect(portable.hexDigest() == expected)
    }

    /// The CPU's SHA extensions (when present) and the portable code agree on every length.
    @Test func hardwareAndPortablePathsAgree() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        let bytes = (0..<5000).map { _ -> UInt8 in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        for length in [0, 1, 63, 64, 65, 127, 128, 129, 1000, 4096, 5000] {
            var hardware = SHA256()
            var portable = SHA256(usesHardware: false)
            hardware.update(bytes[0..<length])
            portable.update(bytes[0..<length])
            #expect(hardware.hexDigest() == portable.hexDigest(), "length \(length)")
        }
    }

    @Test func oneMillionA() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        #expect(hasher.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the 55/56/64-byte padding edges, fed whole and in uneven slices.
    @Test func sliceBoundariesGiveTheSameDigest() {
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let whole = SHA256.hexDigest(of: bytes)
            for step in [1, 3, 17, 64, 100] {
                var hasher = SHA256()
                var index = 0
                while index < bytes.count {
                    let end = min(index + step, bytes.count)
                    hasher.update(bytes[index..<end])
                    index = end
                }
                #expect(hasher.hexDigest() == whole, "length \(length) step \(step)")
            }
        }
    }

    @Test func finalizeLeavesTheHasherUsable() {
        var hasher = SHA256()
        hasher.update(Array("ab".utf8))
        _ = hasher.finalize()
        hasher.update(Array("c".utf8))
        #expect(hasher.hexDigest() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
