import DiagModel
import Foundation
import Glibc

/// Runs diagd in the foreground: takes the store, binds the socket, stops cleanly on SIGTERM or
/// SIGINT (everything queued is committed, exit 0). Returns the exit status.
public enum DaemonLauncher {
    public static func run(options: DaemonOptions) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let server: IngestServer
        do {
            try FileManager.default.createDirectory(atPath: options.storeDirectory, withIntermediateDirectories: true)
            server = try IngestServer(options: options)
        } catch {
            FileHandle.standardError.write(Data("diagd: error: \(error)\n".utf8))
            return 1
        }
        // The default action is ignored so that a signal reaching any thread only wakes the
        // sources; `run` then commits what is queued and returns.
        let sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { server.stop() }
            source.resume()
            return source
        }
        server.run()
        sources.forEach { $0.cancel() }
        return 0
    }
}

extension IngestServer {
    /// Opens (or creates) the store in `options.storeDirectory` and prepares to listen.
    public convenience init(options: DaemonOptions) throws {
        // The store is opened after the lock is taken, inside the designated initializer.
        try self.init(options: options, openStore: { report in
            try ChunkedRecordStore(
                directory: options.storeDirectory, chunkSize: options.chunkSize, maximumSize: options.effectiveMaximumSize(),
                maximumAge: options.maximumAge, report: report)
        }, makeStreamFilter: StreamFilters.make)
    }
}
