import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport

/// `--syslog-tcp` on diagd's syslog loop: connections cost no thread each, and an idle daemon's
/// socket threads do not wake (no polling).
@Suite(.serialized) struct SyslogEventLoopTests {
    /// The threads of `pid` by id: name (`comm`, which Foundation's `Thread.name` does not set on
    /// Linux) and run count (the third field of `schedstat`:
    /// how many times the scheduler has run the thread, so each wake-up adds one).
    static func threads(of pid: Int32) -> [Int: (name: String, runs: Int)] {
        let tasks = "/proc/\(pid)/task"
        var threads: [Int: (name: String, runs: Int)] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let id = Int(entry),
                  let name = try? String(contentsOfFile: "\(tasks)/\(entry)/comm", encoding: .utf8),
                  let schedule = try? String(contentsOfFile: "\(tasks)/\(entry)/schedstat", encoding: .utf8)
            else { continue }
            let fields = schedule.split(separator: " ")
            guard fields.count >= 3, let runs = Int(fields[2].trimmingCharacters(in: .whitespacesAndNewlines)) else { continue }
            threads[id] = (name.trimmingCharacters(in: .newlines), runs)
        }
        return threads
    }

    @Test func fiveHundredIdleTCPConnectionsAreServedByAFixedNumberOfThreads() throws {
        let port = try LoopbackPort.free()
        let syslog = try SyslogDaemon(extra: ["--syslog-tcp", "127.0.0.1:\(port)"])
        let pid = syslog.daemon.processIdentifier
        // Counted once both loops serve (the first connection's record stored, a stats answered).
        var clients = [try TCPClient(port: port)]
        clients[0].write("<13>app: connection 0\n")
        _ = try syslog.waitForRecords(1)
        _ = try syslog.stats()
        let before = Self.threads(of: pid).count
        for index in 1..<500 {
            let client = try TCPClient(port: port)
            clients.append(client)
            if index % 100 == 99 { client.write("<13>app: connection \(index)\n") }
        }
        let records = try syslog.waitForRecords(6)
        #expect(Set(records.map(\.eventMessage)) == Set([0, 99, 199, 299, 399, 499].map { "connection \($0)" }))
        let stats = try syslog.stats()
        // The 500 and the stats request's own connection.
        #expect(stats["openConnections"] == .int(501), "\(stats)")
        let after = Self.threads(of: pid)
        #expect(after.count <= before, "threads before: \(before), with 500 TCP connections: \(after.values.map(\.name).sorted())")
        // Each is served still: the first connection's next message arrives.
        clients[0].write("14 <13>app: first")
        #expect(try syslog.waitForRecords(7).contains { $0.eventMessage == "first" })
        clients.forEach { $0.close() }
        #expect(syslog.daemon.stop() == 0)
    }

    /// Nothing in diagd wakes while nothing happens: the socket loops and their workers sleep
    /// until a socket, a deadline or the stop request wakes them, and the store writer, once its
    /// maintenance after the last record is done, until the next record (no `--max-age`).
    @Test func anIdleDaemonWithSyslogListenersDoesNotWake() throws {
        let port = try LoopbackPort.free()
        let syslog = try SyslogDaemon(extra: ["--syslog-tcp", "127.0.0.1:\(port)"])
        let pid = syslog.daemon.processIdentifier
        let idle = try (0..<20).map { _ in try TCPClient(port: port) }
        let active = try TCPClient(port: port)
        active.write("<13>app: before the quiet\n")
        _ = try syslog.waitForRecords(1)
        // The writer's maintenance after the record (a second after it) goes first.
        sleep(3)
        let start = Self.threads(of: pid)
        sleep(5)
        let end = Self.threads(of: pid)
        #expect(start.count >= 4 && end.count == start.count, "threads: \(start.count), then \(end.count)")
        let woken = end.compactMap { id, thread -> String? in
            guard let runs = start[id]?.runs, thread.runs != runs else { return nil }
            return "thread \(id) (\(thread.name)) ran \(thread.runs - runs) times"
        }
        #expect(woken.isEmpty, "\(woken)")
        idle.forEach { $0.close() }
        active.close()
        #expect(syslog.daemon.stop() == 0)
    }

    /// Refusals are reported while diagd runs, not only when it stops: the first at once, the
    /// next when its interval (`SyslogIntake.reportInterval`, 5 s) has passed, by the loop's
    /// report timer, with nothing else happening meanwhile.
    @Test func refusedDatagramsAreReportedByTheLoopsTimerWhileDiagdRuns() throws {
        let syslog = try SyslogDaemon()
        let sender = try DatagramSender(path: syslog.syslogPath)
        let report = "syslog: refused 1 malformed message; the first: a datagram from pid \(getpid())"
        func reports() -> Int { syslog.daemon.stderr.components(separatedBy: report).count - 1 }
        func waitForReports(_ count: Int) -> Bool {
            let deadline = Date(timeIntervalSinceNow: 30)
            while reports() < count && Date() < deadline { usleep(50_000) }
            return reports() >= count
        }
        try sender.send(Array("<999>a first bad priority".utf8))
        #expect(waitForReports(1), "\(syslog.daemon.stderr)")
        try sender.send(Array("<999>a second bad priority".utf8))
        #expect(waitForReports(2), "\(syslog.daemon.stderr)")
        #expect(try syslog.stats()["syslogInvalid"] == .int(2))
        #expect(syslog.daemon.stop() == 0)
        #expect(reports() == 2)
    }
}
