import DiagProtocol
import Foundation

/// Bounds on what an archive may unpack to, against decompression bombs: a few megabytes of
/// gzip or zstd can hold gigabytes of zeros.
public struct ExtractionLimits: Sendable {
    /// The largest single file accepted.
    public var maximumEntrySize: Int64
    /// The most bytes all files together may unpack to (also bounded by free space, below).
    public var maximumTotalSize: Int64
    public var maximumEntryCount: Int
    /// The unpack may take at most this share of the free space of the cache's file system
    /// when it starts (4: a quarter), and stops when less than `reserve` bytes are left.
    public var freeSpaceDivisor: Int64
    public var reserve: Int64

    /// The environment variable that raises (or lowers) the bound on a whole unpack, in bytes
    /// or with a K, M, G or T suffix (powers of 1024): `DIAG_UNPACK_LIMIT=20G diag show BUNDLE`.
    public static let environmentVariable = "DIAG_UNPACK_LIMIT"

    /// What a real bundle needs: a day of a busy machine's logs is well under 1 GiB.
    public static let defaultTotalSize: Int64 = 4 << 30

    public init(maximumEntrySize: Int64 = 16 << 30, maximumTotalSize: Int64 = ExtractionLimits.configuredTotalSize(),
                maximumEntryCount: Int = 200_000, freeSpaceDivisor: Int64 = 4, reserve: Int64 = 64 << 20) {
        self.maximumEntrySize = maximumEntrySize
        self.maximumTotalSize = maximumTotalSize
        self.maximumEntryCount = maximumEntryCount
        self.freeSpaceDivisor = max(1, freeSpaceDivisor)
        self.reserve = reserve
    }

    /// `DIAG_UNPACK_LIMIT` when it is set and readable, else `defaultTotalSize`.
    public static func configuredTotalSize(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int64 {
        environment[environmentVariable].flatMap(QuantityParsing.byteCount) ?? defaultTotalSize
    }

    /// Bytes free for this user on the file system holding `path`, or nil when unknown.
    static func freeSpace(at path: String) -> Int64? {
        var status = statvfs()
        guard statvfs(path, &status) == 0 else { return nil }
        let (product, overflow) = Int64(status.f_bavail).multipliedReportingOverflow(by: Int64(status.f_frsize))
        return overflow ? Int64.max : product
    }

    /// The bound on this unpack into `destination`: `maximumTotalSize`, or less when the disk
    /// has less than `freeSpaceDivisor` times that free.
    func totalBound(destination: String) -> (bytes: Int64, reason: String) {
        guard let free = Self.freeSpace(at: destination), free / freeSpaceDivisor < maximumTotalSize else {
            return (maximumTotalSize, "the bound of \(maximumTotalSize) bytes (\(Self.environmentVariable) raises it)")
        }
        return (free / freeSpaceDivisor, "1/\(freeSpaceDivisor) of the \(free) bytes free for the bundle cache")
    }
}
