import DiagModel
import DiagStore
import Foundation

/// Writes the bundle's `system_logs.logarchive`: a chunk-by-chunk snapshot of the window for
/// `collect`, or a new store holding only the selected (and, if asked, redacted) records for
/// `feedback`. Records from diagd's memory are added either way.
struct StoreSelection {
    static let batchSize = 5_000

    var request: BundleRequest
    var redactor: Redactor?

    /// Writes the store; `chunkReady` gets each chunk once it is ready to be archived. Returns
    /// the `Info.json` the summaries complete and write (`LogStore.snapshot`), or nil when the
    /// store's own is written.
    func write(to destination: URL, chunkReady: (SnapshotChunk) throws -> Void) throws -> StoreInfo? {
        do {
            if request.selection == nil && redactor == nil {
                return try LogStore.snapshot(of: request.storeDirectory, to: destination, window: request.window,
                                             extraRecords: request.extraRecords.filter(keep), chunkReady: chunkReady)
            }
            try copySelected(to: destination)
            for file in try LogStore.useRollbackJournals(in: destination) {
                try chunkReady(.staged(file: file, path: StoreLayout.chunkURL(destination, file: file).path))
            }
            return nil
        } catch let error as SnapshotError {
            throw BundleError(error)
        }
    }

    private func copySelected(to destination: URL) throws {
        let target = try createTarget(destination)
        var filter = request.selection?.filter ?? StoreFilter()
        filter.start = [filter.start, request.window.start].compactMap { $0 }.max()
        filter.end = [filter.end, request.window.end].compactMap { $0 }.min()
        do {
            let source = try LogStore.openLive(request.storeDirectory)
            let cursor = source.records(filter: filter)
            var batch: [LogRecord] = []
            batch.reserveCapacity(Self.batchSize)
            while let record = try cursor.next() {
                guard try request.selection?.residual(record) ?? true else { continue }
                batch.append(redacted(record))
                if batch.count == Self.batchSize {
                    try target.append(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try target.append(batch)
            try target.append(try request.extraRecords.filter { try keep($0) && (request.selection?.residual($0) ?? true) }.map(redacted))
            try target.rotate()
            try target.close()
        } catch let error as BundleError {
            throw error
        } catch let error as SnapshotError {
            throw BundleError(error)
        } catch {
            throw BundleError.failure("cannot copy the selected records: \(error)")
        }
    }

    private func keep(_ record: LogRecord) -> Bool {
        (request.window.start.map { record.timestamp >= $0 } ?? true) && (request.window.end.map { record.timestamp < $0 } ?? true)
    }

    private func createTarget(_ destination: URL) throws -> LogStore {
        do {
            return try LogStore.open(at: destination, create: true)
        } catch {
            throw BundleError.failure("cannot create the bundle's log store: \(error)")
        }
    }

    /// The record with user names, host names and addresses replaced in its free text.
    private func redacted(_ record: LogRecord) -> LogRecord {
        guard let redactor else { return record }
        var copy = record
        copy.eventMessage = redactor.redact(record.eventMessage)
        copy.formatString = record.formatString.map(redactor.redact)
        copy.processImagePath = record.processImagePath.map(redactor.redact)
        copy.senderImagePath = record.senderImagePath.map(redactor.redact)
        copy.metadata = record.metadata?.mapValues { redact($0, redactor) }
        return copy
    }

    private func redact(_ value: JSONValue, _ redactor: Redactor) -> JSONValue {
        switch value {
        case .string(let text): .string(redactor.redact(text))
        case .array(let values): .array(values.map { redact($0, redactor) })
        case .object(let members): .object(members.mapValues { redact($0, redactor) })
        default: value
        }
    }
}
