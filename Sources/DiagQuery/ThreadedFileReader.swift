import DiagImport
import DiagModel
import Foundation

/// A log file read by DiagImport on a thread of its own, handed over in batches through a
/// two-batch channel: reading and decoding overlap with whatever consumes the records (a store
/// insert, a merge with other files), and memory stays flat whatever the file's size.
///
/// Not thread-safe on the consuming side: one task takes the batches.
public final class ThreadedFileReader {
    public enum Input: Sendable {
        case path(String)
        case standardInput
    }

    /// What the reading thread hands over, in file order.
    public enum Item: Sendable {
        case record(LogRecord)
        case issue(ImportIssue)
    }

    /// Records per hand-over.
    static let batchSize = 2048

    private let channel = BatchChannel<Item>()

    /// Starts reading; throws the reason when the file cannot be opened or its format is unknown.
    public init(_ input: Input, options: ImportOptions) throws {
        let channel = self.channel
        let thread = Thread {
            ThreadName.setCurrent("diag-read")
            Self.read(input, options: options, into: channel)
        }
        thread.start()
        try channel.waitUntilOpened()
    }

    deinit { channel.cancel() }

    /// The next batch of records and issues; nil at the end of the file.
    public func nextBatch() throws -> [Item]? {
        try channel.take()
    }

    private static func read(_ input: Input, options: ImportOptions, into channel: BatchChannel<Item>) {
        let reader: LogFileReader
        do {
            switch input {
            case .path(let path): reader = try LogFileReader(path: path, options: options)
            case .standardInput: reader = try LogFileReader.standardInput(options: options)
            }
        } catch {
            channel.open(failure: error)
            return
        }
        channel.open(failure: nil)
        var pending: [Item] = []
        pending.reserveCapacity(Self.batchSize)
        do {
            try reader.forEach(
                record: { record in
                    pending.append(.record(record))
                    if pending.count >= Self.batchSize { try channel.put(&pending) }
                },
                issue: { issue in
                    pending.append(.issue(issue))
                    if pending.count >= Self.batchSize { try channel.put(&pending) }
                })
            try channel.put(&pending)
            channel.finish(failure: nil)
        } catch is BatchChannelCancelled {
            return
        } catch {
            channel.finish(failure: error)
        }
    }
}

@available(*, unavailable)
extension ThreadedFileReader: Sendable {}
