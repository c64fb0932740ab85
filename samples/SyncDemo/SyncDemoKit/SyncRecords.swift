import Foundation

/// A post as it travels between devices: a CloudKit-like record with its attachments.
public struct PostRecord: Codable, Sendable, Hashable {
    public var recordName: String
    public var title: String
    public var body: String
    /// Seconds since the epoch.
    public var created: Int64
    public var attachments: [AttachmentRecord]

    public init(recordName: String, title: String, body: String, created: Int64, attachments: [AttachmentRecord]) {
        self.recordName = recordName
        self.title = title
        self.body = body
        self.created = created
        self.attachments = attachments
    }
}

/// An attachment and the bytes of its image (an asset, in CloudKit's words).
public struct AttachmentRecord: Codable, Sendable, Hashable {
    public var recordName: String
    public var fileName: String
    public var checksum: String
    public var data: Data

    public init(recordName: String, fileName: String, data: Data) {
        self.recordName = recordName
        self.fileName = fileName
        self.checksum = Checksum.hex(data)
        self.data = data
    }

    /// True when the bytes are those the checksum was taken of.
    public var isIntact: Bool { Checksum.hex(data) == checksum }
}

/// One upload: a few posts of one export, numbered within it.
public struct RecordBatch: Codable, Sendable, Hashable {
    /// The exporting store's UUID.
    public var sourceStore: String
    public var index: Int
    public var posts: [PostRecord]

    public init(sourceStore: String, index: Int, posts: [PostRecord]) {
        self.sourceStore = sourceStore
        self.index = index
        self.posts = posts
    }

    public var attachmentCount: Int { posts.reduce(0) { $0 + $1.attachments.count } }
    public var assetBytes: Int { posts.reduce(0) { $0 + $1.attachments.reduce(0) { $0 + $1.data.count } } }

    public func write(to url: URL) throws {
        let temporary = url.appendingPathExtension("partial")
        try JSONEncoder().encode(self).write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else { throw DemoError.system("cannot move \(temporary.path) to \(url.path)") }
    }

    /// Reads a batch file; the error names the file and what was wrong with it.
    public static func read(from url: URL) throws -> RecordBatch {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw DemoError("cannot read the record batch \(url.path): \(error.localizedDescription)")
        }
        do { return try JSONDecoder().decode(RecordBatch.self, from: data) } catch {
            throw DemoError("\(url.path) is not a record batch (\(data.count) bytes): \(error)")
        }
    }
}

/// FNV-1a, 64 bits, as hex: enough to tell damaged bytes from intact ones in a demo.
public enum Checksum {
    public static func hex(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
