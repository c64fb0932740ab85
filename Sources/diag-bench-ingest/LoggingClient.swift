import DiagClient
import DiagModel
import Foundation

/// `log` mode: a component that logs through DiagClient's `Logger`, as the sync system's
/// processes do. Tests run several of these as real processes.
enum LoggingClient {
    /// Logs `count` records (every level in turn) inside an activity, adopted when `activity` is
    /// given, then flushes. Prints the activity's identifier and the transport's figures.
    static func run(count: Int, socketPath: String, tag: String, activity: Int64?) throws {
        let transport = LogTransport(socketPath: socketPath)
        let logger = Logger(subsystem: "com.example.bench", category: tag, transport: transport)
        let levels: [MessageType] = [.default, .info, .error, .fault, .debug]
        let body = {
            for index in 0..<count {
                let secret = "token-\(index)"
                logger.log(
                    level: levels[index % levels.count], "record \(index, privacy: .public) of \(tag, privacy: .public) with \(secret)",
                    metadata: ["index": .int(Int64(index))])
            }
            print("activity=\(Activity.current?.identifier ?? 0)")
        }
        if let activity {
            Activity(adopting: activity, body)
        } else {
            Activity("bench \(tag)", transport: transport, body)
        }
        try transport.flush(timeout: 60)
        let statistics = transport.statistics
        print("dropped=\(statistics.dropped) errors=\(statistics.errorReplies) connections=\(statistics.connections)")
    }
}
