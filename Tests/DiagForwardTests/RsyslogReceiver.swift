import Foundation
import Glibc
import TestSupport

/// A real `rsyslogd` from Debian's package, on a loopback port, writing every message it
/// receives as one JSON object per line (its `jsonf` template of the RFC 5424 fields).
final class RsyslogReceiver {
    let directory: TemporaryDirectory
    private(set) var port: UInt16
    private var processID: pid_t?
    private var outputFile: String { directory.file("received.ndjson").path }

    init() throws {
        directory = try TemporaryDirectory("rsyslog")
        try directory.write("work/.keep", "")
        port = 0
        var failure: (any Error)?
        for _ in 0..<5 {
            port = try LoopbackPort.free()
            try writeConfiguration()
            do {
                try start()
                return
            } catch {
                failure = error
                stop()
            }
        }
        throw failure!
    }

    private func writeConfiguration() throws {
        try directory.write("rsyslog.conf", """
            global(workDirectory="\(directory.file("work").path)" parser.escapeControlCharactersOnReceive="off"
                   maxMessageSize="64k")
            main_queue(queue.type="Direct")
            module(load="imtcp")
            input(type="imtcp" port="\(port)" address="127.0.0.1")
            template(name="fields" type="list" option.jsonf="on") {
              property(outname="pri" name="pri" format="jsonf")
              property(outname="timestamp" name="timestamp" dateFormat="rfc3339" format="jsonf")
              property(outname="hostname" name="hostname" format="jsonf")
              property(outname="appname" name="app-name" format="jsonf")
              property(outname="procid" name="procid" format="jsonf")
              property(outname="msgid" name="msgid" format="jsonf")
              property(outname="sd" name="structured-data" format="jsonf")
              property(outname="msg" name="msg" format="jsonf")
            }
            action(type="omfile" file="\(outputFile)" template="fields" asyncWriting="off" flushOnTXEnd="on")

            """)
    }

    /// Starts rsyslogd (again) and waits until its port accepts connections.
    func start() throws {
        let arguments = ["/usr/sbin/rsyslogd", "-n", "-f", directory.file("rsyslog.conf").path, "-i", directory.file("rsyslogd.pid").path]
        let pid = try SpawnedProcess.spawn(arguments)
        processID = pid
        let deadline = Date(timeIntervalSinceNow: 20)
        while Date() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                processID = nil
                throw ReceiverFailure("rsyslogd exited with status \(status)")
            }
            if let owner = Self.listener(port: port) {
                // Another test run may have taken the port between `freePort` and rsyslogd's bind.
                guard owner == pid else { throw ReceiverFailure("127.0.0.1:\(port) is taken by process \(owner)") }
                return
            }
            usleep(20_000)
        }
        throw ReceiverFailure("rsyslogd did not listen on 127.0.0.1:\(port) within 20 s")
    }

    /// SIGTERM (rsyslog's orderly stop) and waits for the process to end.
    func stop() {
        guard let pid = processID else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        processID = nil
    }

    /// Sends `signal` to rsyslogd; SIGKILL also waits for its end.
    func send(signal: Int32) {
        guard let pid = processID else { return }
        kill(pid, signal)
        if signal == SIGKILL {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            processID = nil
        }
    }

    /// Every line received so far, as the template wrote it (one JSON object each).
    func lines() -> [Substring] {
        guard let data = FileManager.default.contents(atPath: outputFile) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }

    /// The lines parsed (Foundation's JSON drops a BOM inside a string: check it on `lines()`).
    func messages() -> [[String: Any]] {
        lines().compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// The indexes of the records tagged `tag` received so far (see `recordLine`).
    func indexes(tagged tag: String) -> [Int] {
        let marker = "\"msg\":\""
        let prefix = tag + " #"
        return lines().compactMap { line in
            guard let start = line.range(of: marker) else { return nil }
            var text = line[start.upperBound...]
            if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
            guard text.hasPrefix(prefix) else { return nil }
            return Int(text.dropFirst(prefix.count).prefix { $0.isNumber })
        }
    }

    /// Waits (up to `seconds`) until `condition` holds; returns whether it does.
    @discardableResult
    func wait(seconds: Double = 60, until condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(50_000)
        }
        return true
    }

    /// Bytes written by rsyslog so far.
    var receivedBytes: Int {
        ((try? FileManager.default.attributesOfItem(atPath: outputFile))?[.size] as? Int) ?? 0
    }

    deinit { stop() }

    /// The process listening on 127.0.0.1:`port` (from /proc/net/tcp and the processes' fds),
    /// nil when none does.
    static func listener(port: UInt16) -> pid_t? {
        let local = String(format: "0100007F:%04X", port)
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return nil }
        var inode: String?
        for line in table.split(separator: "\n") {
            let fields: [Substring] = line.split(separator: " ")
            if fields.count > 9 && fields[1] == local && fields[3] == "0A" { inode = String(fields[9]) }
        }
        guard let inode else { return nil }
        let target = "socket:[\(inode)]"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry) else { continue }
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? [] {
                if (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == target { return pid }
            }
        }
        return -1
    }
}

struct ReceiverFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Starts programs with every signal unblocked and at its default action: a thread of the test
/// runner blocks signals, and `Process` passes its mask on, so that rsyslogd would ignore SIGTERM.
enum SpawnedProcess {
    static func spawn(_ arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        // Under the tests' spawn lock: rsyslogd lives long, and a `Process`'s end-of-life socket
        // it inherited would keep that process unreaped for as long as it runs (`Spawning`).
        let result = Spawning.exclusively { posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ) }
        guard result == 0 else { throw ReceiverFailure("cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
        return pid
    }
}
