import Foundation
import Glibc
import SyncDemoKit
import TestSupport

/// A real diagd on a temporary store and socket (TestSupport's `RunningDaemon`), and
/// `sync-demo run` against it.
final class ScenarioHarness {
    let directory: TemporaryDirectory
    let daemon: RunningDaemon
    var storePath: String { daemon.storePath }
    var socketPath: String { daemon.socketPath }

    init() throws {
        // A short folder name: Unix socket paths must stay under 108 bytes.
        directory = try TemporaryDirectory("sd")
        daemon = try RunningDaemon(socketName: "d.sock", directory: directory)
    }

    var workPath: String { directory.file("work").path }

    /// Plays a scenario; the `KEY=value` lines it printed, or a failure with its stderr.
    func play(posts: Int = 8, fault: DemoFault? = nil) throws -> [String: String] {
        var arguments = ["run", "--work", workPath, "--posts", String(posts)]
        if let fault { arguments += ["--fault", fault.rawValue] }
        let output = try run(BuiltProducts.path("sync-demo"), arguments, environment: ["DIAG_SOCKET": socketPath])
        guard output.status == 0 else { throw HarnessFailure("sync-demo failed (\(output.status)): \(output.stderr)") }
        return Self.keyValues(output.stdout)
    }

    /// SIGTERM: diagd commits what is queued and exits.
    func stopDaemon() -> Int32 {
        daemon.stop()
    }

    /// Runs `diag` with arguments, pointed at this harness's diagd (never a daemon of the machine's).
    func diag(_ arguments: [String]) throws -> ProcessOutput {
        try run(BuiltProducts.path("diag"), arguments, environment: ["DIAG_SOCKET": socketPath, "DIAG_STORE": storePath])
    }

    /// `diag show` over the store with every level, as parsed NDJSON objects.
    func show(_ extra: [String] = [], source: String? = nil) throws -> [[String: Any]] {
        let output = try diag(["show", source ?? storePath, "--info", "--debug", "--style", "ndjson"] + extra)
        guard output.status == 0 else { throw HarnessFailure("diag show \(extra) failed (\(output.status)): \(output.stderr)") }
        return try output.stdout.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw HarnessFailure("diag show printed a line that is not a JSON object: \(line)")
            }
            return object
        }
    }

    static func keyValues(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }

    /// The repository's `predicates/` folder, found upward from this file.
    static func predicateFile(_ name: String, filePath: String = #filePath) -> String {
        var url = URL(fileURLWithPath: filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("predicates").appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
        }
        return name
    }

    deinit {
        daemon.stop()
    }
}

struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
