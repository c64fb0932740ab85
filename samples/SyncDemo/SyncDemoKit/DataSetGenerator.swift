import Foundation

/// Makes a deterministic data set of posts with attachments of varied sizes, like the WWDC
/// demo's LargeDataGenerator: mostly small images, some medium, a few large.
public struct DataSetGenerator {
    private var random: SplitMix64
    /// Attachment sizes in bytes, and how often each is picked (out of the total weight).
    static let sizes: [(bytes: Int, weight: Int)] = [(2 << 10, 5), (16 << 10, 4), (64 << 10, 2), (256 << 10, 1)]
    static let words = ["sync", "harbor", "lantern", "meadow", "orbit", "pebble", "quartz", "river", "summit",
                        "tundra", "violet", "willow", "canyon", "ember", "fjord", "glacier", "island", "jasmine"]

    public init(seed: UInt64) { random = SplitMix64(seed: seed) }

    public mutating func posts(count: Int, device: String, now: Int64) -> [PostRecord] {
        (0..<count).map { index in
            let attachments = (0..<(1 + Int(random.next() % 3))).map { number in
                AttachmentRecord(
                    recordName: "\(device)-post-\(index)-attachment-\(number)",
                    fileName: "IMG_\(1000 + index * 10 + number).jpg", data: imageBytes(count: pickSize()))
            }
            return PostRecord(
                recordName: "\(device)-post-\(index)", title: "Post \(index): \(phrase(3))", body: phrase(24),
                created: now + Int64(index), attachments: attachments)
        }
    }

    private mutating func pickSize() -> Int {
        let total = Self.sizes.reduce(0) { $0 + $1.weight }
        var roll = Int(random.next() % UInt64(total))
        for size in Self.sizes {
            if roll < size.weight { return size.bytes }
            roll -= size.weight
        }
        return Self.sizes[0].bytes
    }

    private mutating func phrase(_ count: Int) -> String {
        (0..<count).map { _ in Self.words[Int(random.next() % UInt64(Self.words.count))] }.joined(separator: " ")
    }

    private mutating func imageBytes(count: Int) -> Data {
        var data = Data(capacity: count)
        while data.count < count {
            var word = random.next()
            withUnsafeBytes(of: &word) { data.append(contentsOf: $0.prefix(count - data.count)) }
        }
        return data
    }
}

/// A small, fast, seedable generator (Steele, Lea, Flood 2014): the same seed gives the same data set.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
