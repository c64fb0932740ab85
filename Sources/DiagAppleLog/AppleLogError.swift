/// A file of Apple's unified logging that cannot be read as what it claims to be.
///
/// Every refusal names the file, the structure and the offset, and what was expected, so that a
/// damaged archive can be told from a bug here. All of them are bad input (exit status 65) except
/// `unreadable`, which is the file system's (exit status 1).
public struct AppleLogError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var isUnreadable: Bool

    public init(_ message: String, unreadable: Bool = false) {
        self.message = message
        isUnreadable = unreadable
    }

    public var description: String { message }
}

/// The limits that keep a hostile file from taking the machine: every size read from a file is
/// checked against one of these before memory is set aside for it.
public struct AppleLogLimits: Sendable {
    /// The largest tracev3, timesync, uuidtext or dsc file read (Apple's tracev3 files are about
    /// 10 MiB, dsc files up to a few hundred MiB).
    public var maximumFileBytes: Int = 512 << 20
    /// The largest decompressed chunk set; logd writes them at 64 KiB or so.
    public var maximumChunkSetBytes: Int = 16 << 20
    /// The most decompressed bytes of one tracev3 file: LZ4 expands at most 255 times, and a
    /// file that claims more than this is a bomb whatever its blocks say.
    public var maximumDecompressedBytesPerFile: Int = 1 << 30
    /// The longest rendered message (Apple's own limit on a message is 1 KiB public data plus
    /// 64 KiB oversize data).
    public var maximumMessageBytes: Int = 256 << 10

    public init() {}
}
