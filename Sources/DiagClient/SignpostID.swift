import Synchronization

/// The identifier that tells apart intervals of one name that overlap, as `OSSignpostID`: a
/// begin and an end pair when their scope owner, subsystem, category, name and ID agree.
public struct SignpostID: Sendable, Hashable, CustomStringConvertible {
    /// The 64 bits as sent and stored (`signpostID`, a signed integer in the record).
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// For intervals of a name that never overlap in their scope: one ID is enough (Apple's value).
    public static let exclusive = SignpostID(0xEEEE_B0B5_B2B2_EEEE)
    /// An ID that pairs nothing; `beginInterval` with it sends no record (Apple's `invalid`).
    public static let invalid = SignpostID(0)
    /// Apple's `null`: not an ID either.
    public static let null = SignpostID(UInt64.max)

    /// The ID an object stands for while it lives: intervals about one object pair without
    /// passing an ID around (Apple's `OSSignpostID(log:object:)`).
    public init(object: AnyObject) {
        self.init(UInt64(UInt(bitPattern: ObjectIdentifier(object))))
    }

    /// An ID made from any value that identifies the work (a batch number, a request's URL):
    /// the same value gives the same ID in every process, so two processes can end and begin
    /// what the other saw (with scope `system`).
    public init(value: some Hashable & CustomStringConvertible) {
        self.init(Self.stableHash(value.description))
    }

    var isValid: Bool { self != .invalid && self != .null }

    /// The value as stored: the same 64 bits as a signed integer.
    var stored: Int64 { Int64(bitPattern: rawValue) }

    public var description: String { "0x" + String(rawValue, radix: 16) }

    /// FNV-1a: stable across processes and runs, unlike `Hasher`.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        // Never one of the three reserved values.
        return hash == 0 || hash == UInt64.max || hash == 0xEEEE_B0B5_B2B2_EEEE ? hash &+ 1 : hash
    }

    /// Generated IDs: a per-process counter from a random start, so IDs of one process never
    /// repeat and two processes' rarely meet (their intervals stay apart anyway: the pairing
    /// key holds the process unless the scope is `system`).
    static let generator = Atomic<UInt64>(UInt64.random(in: 1 << 32 ..< 1 << 62))

    static func generated() -> SignpostID {
        SignpostID(generator.add(1, ordering: .relaxed).newValue)
    }
}

/// Whose IDs a signposter's IDs are unique among, as Apple's signpost scopes: intervals pair
/// within one process (the default), one thread, or across the whole system.
public enum SignpostScope: String, Sendable, CaseIterable {
    case thread, process, system
}
