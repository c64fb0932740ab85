import DiagModel
import Foundation

/// Where a forward is in the store: the last record delivered, as the chunk's sequence number
/// and the record's `id` in it (insertion order). Records are forwarded in the order they were
/// committed, chunk after chunk.
public struct ForwardPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var chunk: Int64
    public var record: Int64

    public init(chunk: Int64, record: Int64) {
        self.chunk = chunk
        self.record = record
    }

    /// Before anything a store can hold.
    public static let beginning = ForwardPosition(chunk: 0, record: 0)

    public static func < (lhs: ForwardPosition, rhs: ForwardPosition) -> Bool {
        (lhs.chunk, lhs.record) < (rhs.chunk, rhs.record)
    }

    public var description: String { "chunk \(chunk), record \(record)" }
}

/// A forward's cursor, kept in the store as `forwarding/<url>.cursor.json` so that delivery
/// resumes after a restart of diagd; rewritten (a temporary file, then a rename) after every
/// delivered batch.
public struct ForwardCursor: Sendable, Hashable {
    public var url: String
    /// `Info.json`'s identifier: a cursor of another store (the store was replaced) is not used.
    public var storeIdentifier: String
    public var position: ForwardPosition

    public init(url: String, storeIdentifier: String, position: ForwardPosition) {
        self.url = url
        self.storeIdentifier = storeIdentifier
        self.position = position
    }

    public static func fileURL(storeDirectory: URL, destination: ForwardDestination) -> URL {
        storeDirectory.appendingPathComponent("forwarding", isDirectory: true)
            .appendingPathComponent(destination.cursorName + ".cursor.json")
    }

    /// The cursor saved at `url`, nil when there is none; a damaged file is refused with an error
    /// that names it and says how to start over.
    public static func load(from file: URL) throws(ForwardConfigurationError) -> ForwardCursor? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let advice = "remove the file to forward again from the store's newest record"
        let object: [String: JSONValue]
        do {
            object = try JSONReader.parseObject(Array(try Data(contentsOf: file)))
        } catch let error as JSONReaderError {
            throw ForwardConfigurationError("\(file.path):\(error.line):\(error.column): damaged forward cursor: \(error.reason); \(advice)")
        } catch {
            throw ForwardConfigurationError("\(file.path): cannot read the forward cursor (\(error.localizedDescription)); \(advice)")
        }
        guard let url = object["url"]?.stringValue, let store = object["store"]?.stringValue,
              let chunk = object["chunk"]?.int64Value, let record = object["record"]?.int64Value, chunk >= 0, record >= 0
        else {
            throw ForwardConfigurationError(
                "\(file.path): damaged forward cursor: expected {\"url\": string, \"store\": string, \"chunk\": integer ≥ 0, \"record\": integer ≥ 0}; \(advice)")
        }
        return ForwardCursor(url: url, storeIdentifier: store, position: ForwardPosition(chunk: chunk, record: record))
    }

    public func save(to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var writer = JSONWriter(reservingCapacity: 256)
        writer.append(.object([
            "url": .string(url), "store": .string(storeIdentifier),
            "chunk": .int(position.chunk), "record": .int(position.record),
        ]))
        writer.bytes.append(UInt8(ascii: "\n"))
        try Data(writer.bytes).write(to: file, options: .atomic)
    }
}
