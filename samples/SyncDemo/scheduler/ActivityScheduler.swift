import DiagClient
import Foundation
import SyncDemoKit

/// The scheduler's decisions: a score from the activity's kind, the system's load and how many
/// times it was deferred already; at or above `threshold` it may run.
final class ActivityScheduler {
    let logger = Logger(subsystem: "com.example.sync.scheduler", category: "activity")
    /// `activity` per run, from the decision to run it to its completion, which arrive as two
    /// requests: the ID is made from the activity's identifier, which both carry.
    let signposter = Signposter(subsystem: "com.example.sync.scheduler", category: "activity")
    static let threshold = 0.5
    /// How long an activity of each kind may take before the scheduler holds it against it.
    static let budgetMilliseconds = ["export": 10_000, "import": 2_000]
    private var deferrals: [String: Int] = [:]

    func handle(_ request: DemoMessage) throws -> MessageServer.Reply {
        switch request.command {
        case "submit": return MessageServer.Reply(try submit(request))
        case "complete": return MessageServer.Reply(try complete(request))
        case "shutdown": return MessageServer.Reply(DemoMessage("bye"), stop: true)
        default: throw DemoError("unknown request '\(request.command)'; the scheduler accepts submit, complete, shutdown")
        }
    }

    private func submit(_ request: DemoMessage) throws -> DemoMessage {
        let name = try request.require("name")
        let kind = try request.require("kind")
        guard let budget = Self.budgetMilliseconds[kind] else {
            throw DemoError("kind '\(kind)' is not one of \(Self.budgetMilliseconds.keys.sorted().joined(separator: ", "))")
        }
        let waited = deferrals[name, default: 0]
        let load = SystemLoad.perCore()
        let base = kind == "import" ? 0.9 : 0.8
        let score = max(0, min(1, base - 0.5 * min(load, 1) + 0.2 * Double(waited)))
        let scoreText = String(format: "%.2f", score)
        let loadText = String(format: "%.2f", load)
        logger.info("'\(name, privacy: .public)': evaluating \(kind, privacy: .public) activity, load \(loadText, privacy: .public) per core, deferred \(waited, privacy: .public) times")
        guard score >= Self.threshold else {
            deferrals[name] = waited + 1
            logger.log("'\(name, privacy: .public)':Decision: Must Not Proceed, score \(scoreText, privacy: .public) < \(Self.threshold, privacy: .public)")
            return DemoMessage("defer", values: ["score": scoreText, "retryAfterMs": "100"])
        }
        deferrals[name] = nil
        var identifier: Int64 = 0
        let start: () -> Void = {
            Activity(name) {
                identifier = Activity.current?.identifier ?? 0
                self.logger.log("'\(name, privacy: .public)':Decision: Can Proceed, score \(scoreText, privacy: .public), budget \(budget, privacy: .public) ms")
            }
        }
        if let parent = request.activityID { Activity(adopting: parent, name: "sync") { start() } } else { start() }
        _ = signposter.beginInterval("activity", id: signposter.makeSignpostID(from: identifier), "'\(name, privacy: .public)' (\(kind, privacy: .public))")
        return DemoMessage("run", activityID: identifier, values: ["score": scoreText, "budgetMs": String(budget)])
    }

    private func complete(_ request: DemoMessage) throws -> DemoMessage {
        let name = try request.require("name")
        let kind = try request.require("kind")
        let duration = try request.requireInt("durationMs")
        let result = try request.require("result")
        guard let identifier = request.activityID else { throw DemoError("request 'complete' lacks the activity ID") }
        let budget = Self.budgetMilliseconds[kind] ?? 0
        Activity(adopting: identifier, name: name) {
            let state = SignpostIntervalState(name: "activity", id: signposter.makeSignpostID(from: identifier), scope: signposter.scope)
            signposter.endInterval("activity", state, "\(result, privacy: .public) after \(duration, privacy: .public) ms")
            if result != "ok" {
                logger.error("'\(name, privacy: .public)': activity finished with result \(result, privacy: .public) after \(duration, privacy: .public) ms")
            } else if duration > budget {
                logger.error("'\(name, privacy: .public)': activity exceeded its time budget (\(duration, privacy: .public) ms > \(budget, privacy: .public) ms)")
            } else {
                logger.log("'\(name, privacy: .public)': activity completed in \(duration, privacy: .public) ms")
            }
        }
        return DemoMessage("ok")
    }
}

/// The one-minute load average over the number of processors, from `/proc/loadavg`.
enum SystemLoad {
    static func perCore() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
              let first = text.split(separator: " ").first, let load = Double(first) else { return 0 }
        return load / Double(max(1, ProcessInfo.processInfo.activeProcessorCount))
    }
}
