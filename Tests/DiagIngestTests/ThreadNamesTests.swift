import Foundation
import Testing
import TestSupport

/// diagd's threads carry their names where `top -H`, `ps -L` and `perf` read them, so that a
/// user asking which part is busy sees the writer, the connection workers, the syslog loop and
/// the checkpointer apart (before, every thread was "diagd").
@Suite struct ThreadNamesTests {
    @Test func diagdsThreadsAreNamedForTheKernel() throws {
        let directory = try TemporaryDirectory("diagd-threads")
        let daemon = try RunningDaemon(arguments: ["--syslog-socket", directory.file("log").path], directory: directory)
        try daemon.send(["{\"eventMessage\":\"one\"}"])
        let tasks = "/proc/\(daemon.processIdentifier)/task"
        let names = try FileManager.default.contentsOfDirectory(atPath: tasks).compactMap { task in
            try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(daemon.stop() == 0)
        for expected in ["diagd-writer", "diagd-conn-0", "diagd-conn-1", "diagd-syslog", "diagd-syslog-0", "diag-checkpoint"] {
            #expect(names.contains(expected), "\(names)")
        }
    }
}
