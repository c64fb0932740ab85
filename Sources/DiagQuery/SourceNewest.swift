import DiagImport
import DiagModel
import DiagStore
import Foundation

extension LogQuery {
    /// The timestamp of the newest record of all `sources`, every level counted; nil when they
    /// hold none. Files are read through once; lines that are not records are left for the
    /// query itself to report.
    public static func newestTimestamp(
        of sources: [QuerySource], bundleOpener: (any BundleOpener)?, options: ImportOptions = ImportOptions()
    ) throws -> Int64? {
        var newest: Int64?
        func note(_ value: Int64?) {
            if let value { newest = max(newest ?? .min, value) }
        }
        for source in sources {
            switch source {
            case .store(let url):
                note(try storeNewest(url))
            case .bundle(let path):
                guard let bundleOpener else {
                    throw QueryError("\(path): a bundle, and this build of diag has no bundle reader")
                }
                let opened = try bundleOpener.openStore(inBundle: path)
                note(try storeNewest(opened.storeURL))
            case .file(let path):
                guard path != "-" else {
                    throw QueryError("-: standard input is read once, so its newest record cannot be found before it is shown; with --last, save it to a file first, or give --start")
                }
                let everything = RecordSelection(includeInfo: true, includeDebug: true)
                let stream = try FileRecordStream(path: path, selection: everything, condition: nil, options: options,
                                                  issues: IssueCounter(report: { _ in }))
                while let record = try stream.next() { note(record.timestamp) }
            case .appleLog(let path):
                let everything = RecordSelection(includeInfo: true, includeDebug: true)
                for stream in try AppleLogRecordStream.streams(path: path, selection: everything, condition: nil) {
                    while let record = try stream.next() { note(record.timestamp) }
                }
            }
        }
        return newest
    }

    private static func storeNewest(_ url: URL) throws -> Int64? {
        do {
            return try LogStore.openForReading(at: url).newestTimestamp()
        } catch let error as StoreError {
            throw QueryError(error: error)
        }
    }
}
