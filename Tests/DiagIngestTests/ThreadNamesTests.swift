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
        let expected = ["diagd-writer", "diagd-conn-0", "diagd-conn-1", "diagd-syslog", "diagd-syslog-0", "diag-checkpoint"]
        // A thread names itself once it runs: until then the kernel shows its creator's name (the
        // checkpointer, started by the writer when the chunk opens, reads "diagd-writer" for that
        // moment). On a loaded machine that moment can outlast the send, so the names are read
        // until all are there, for up to 20 seconds.
        var names: [String] = []
        let deadline = Date(timeIntervalSinceNow: 20)
        repeat {
            names = try FileManager.default.contentsOfDirectory(atPath: tasks).compactMap { task in
                try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if expected.allSatisfy(names.contains) { break }
            usleep(10_000)
        } while Date() < deadline
        #expect(daemon.stop() == 0)
        for name in expected {
            #expect(names.contains(name), "\(names)")
        }
    }
}
