import DiagModel
import DiagQuery
import DiagStore
import Foundation

/// The Error and Fault records of one snapshot chunk, in time order, read with a plain
/// connection: the store's own reader memory-maps chunks, which a collection of a large store
/// would count in its resident size chunk after chunk.
struct ChunkErrorStream: RecordStream {
    static let columns = """
        timestamp, receiptTime, messageType, eventType, process, processID, processImagePath, userID,
        sender, senderImagePath, subsystem, category, threadID, activityIdentifier, parentActivityIdentifier,
        traceID, eventMessage, formatString, signpostID, signpostName, signpostType, metadata
        """

    private let database: Database
    private let statement: Statement
    private let path: String

    init(_ source: SummarySource) throws {
        path = source.name
        database = try source.open()
        // One of these is open per chunk at once: keep each one's page cache (and sorter) small.
        try database.execute("PRAGMA cache_size = -256")
        statement = try database.prepare("SELECT \(Self.columns) FROM records WHERE messageType IN (16, 17) ORDER BY timestamp")
    }

    mutating func next() throws -> LogRecord? {
        guard try statement.step() else { return nil }
        var metadata: [String: JSONValue]?
        if let text = statement.optionalString(at: 21) {
            do {
                metadata = try JSONReader.parseObject(text)
            } catch {
                throw BundleError.failure("\(path): a record's metadata is not a JSON object: \(error)")
            }
        }
        return LogRecord(
            timestamp: statement.int64(at: 0),
            messageType: MessageType(rawValue: Int(statement.int64(at: 2))) ?? .error,
            eventType: EventType(rawValue: Int(statement.int64(at: 3))) ?? .logEvent,
            process: statement.optionalString(at: 4), processID: statement.optionalInt64(at: 5),
            processImagePath: statement.optionalString(at: 6), userID: statement.optionalInt64(at: 7),
            sender: statement.optionalString(at: 8), senderImagePath: statement.optionalString(at: 9),
            subsystem: statement.optionalString(at: 10), category: statement.optionalString(at: 11),
            threadID: statement.optionalInt64(at: 12), activityIdentifier: statement.optionalInt64(at: 13),
            parentActivityIdentifier: statement.optionalInt64(at: 14), traceID: statement.optionalInt64(at: 15),
            eventMessage: statement.string(at: 16), formatString: statement.optionalString(at: 17),
            signpostID: statement.optionalInt64(at: 18), signpostName: statement.optionalString(at: 19),
            signpostType: statement.optionalString(at: 20), metadata: metadata,
            receiptTime: statement.optionalInt64(at: 1))
    }

    /// Every chunk's errors, merged in time order.
    static func merged(_ sources: [SummarySource]) throws -> MergedRecordStream {
        MergedRecordStream(try sources.map { try ChunkErrorStream($0) })
    }
}
