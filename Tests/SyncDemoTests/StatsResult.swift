import Foundation
import TestSupport

/// `diag stats --style json`, parsed.
struct StatsResult {
    var method: String
    var residual: Bool
    var events: Int
    var bytes: Int
    var processes: [String: Int] = [:]
    var levels: [String: Int] = [:]

    init(_ output: ProcessOutput) throws {
        guard output.status == 0 else { throw HarnessFailure("diag stats failed (\(output.status)): \(output.stderr)") }
        guard let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any],
              let method = object["method"] as? String, let residual = object["residual"] as? Bool,
              let totals = object["totals"] as? [String: Any], let events = totals["events"] as? Int,
              let bytes = totals["bytes"] as? Int
        else { throw HarnessFailure("diag stats printed no stats object: \(output.stdout.prefix(300))") }
        self.method = method
        self.residual = residual
        self.events = events
        self.bytes = bytes
        for (key, table) in [("processes", \StatsResult.processes), ("levels", \StatsResult.levels)] {
            for row in object[key] as? [[String: Any]] ?? [] {
                if let name = row["name"] as? String, let count = row["events"] as? Int { self[keyPath: table][name] = count }
            }
        }
    }
}
