import DiagGenerator
import DiagModel
import DiagStore
import Foundation
import Glibc
import Testing
import TestSupport

/// Issue 13, item 6: `diag show` holds a bounded amount of output, whatever the store's size,
/// the style or the predicate, also when the reader on the pipe is slow: the parallel scan's
/// threads wait for the writer instead of buffering ahead (before, a `!=` predicate on 2M
/// records peaked at 332 MB, 430 MB through a slow pipe).
@Suite(.serialized) struct ShowMemoryBoundTests {
    static let records = 40_000
    /// The bound on peak RSS.
    static let bound = 64 << 20

    /// Four sealed chunks of 10,000 records with 4 KiB messages: 170 MB of NDJSON, each chunk's
    /// output (42 MB) alone most of the bound.
    static let store: (folder: TemporaryDirectory, url: URL) = {
        let folder = try! TemporaryDirectory("show-memory-bound")
        let url = folder.file("store")
        let store = try! LogStore.open(at: url, create: true)
        var batch: [LogRecord] = []
        for var record in RecordGenerator(GeneratorOptions(count: records, seed: 6)) {
            record.eventMessage += " " + String(repeating: "padding ", count: 512)
            batch.append(record)
            if batch.count == 10_000 {
                try! store.append(batch)
                try! store.rotate()
                batch.removeAll()
            }
        }
        try! store.close()
        return (folder, url)
    }()

    /// Runs the built diag with `arguments`, reading its output slowly: nothing for the first
    /// second (every thread runs into the bound), then 64 KiB at a time with a pause between.
    /// Returns the bytes read, the exit status and the child's peak RSS: VmHWM of its
    /// /proc/PID/status, read as it runs (wait4's ru_maxrss would count this test process's own
    /// RSS, which posix_spawn's child shares until it executes diag).
    func slowlyRead(_ arguments: [String]) throws -> (bytes: Int, lines: Int, status: Int32, peak: Int) {
        var pipe: [Int32] = [0, 0]
        // Both ends close-on-exec, set under the spawn lock (the child's stdout is a dup2 copy,
        // without the flag), so that no other test's child inherits the write end and keeps
        // this read from its end.
        let made = Spawning.exclusively {
            Glibc.pipe(&pipe) == 0 && fcntl(pipe[0], F_SETFD, FD_CLOEXEC) == 0 && fcntl(pipe[1], F_SETFD, FD_CLOEXEC) == 0
        }
        guard made else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        let path = BuiltProducts.path("diag")
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables: [String] = ["TZ=UTC", "PATH=/usr/bin:/bin"]
        let environment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = Spawning.exclusively { posix_spawn(&child, path, &actions, nil, argv, environment) }
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        usleep(1_000_000)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var total = 0
        var lines = 0
        var peak = Self.highWaterMark(child)
        var reads = 0
        while true {
            let count = read(pipe[0], &buffer, buffer.count)
            if count <= 0 { break }
            total += count
            lines += buffer[0..<count].count(where: { $0 == UInt8(ascii: "\n") })
            reads += 1
            if reads % 16 == 0 { peak = max(peak, Self.highWaterMark(child)) }
            usleep(500)
        }
        peak = max(peak, Self.highWaterMark(child))
        var status: Int32 = 0
        waitpid(child, &status, 0)
        return (total, lines, (status >> 8) & 0xFF, peak)
    }

    /// The process's peak RSS so far in bytes (VmHWM), 0 once it has exited.
    static func highWaterMark(_ process: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).dropLast(3).trimmingCharacters(in: .whitespaces))
        else { return 0 }
        return kilobytes * 1024
    }

    @Test(arguments: [
        ["--style", "ndjson", "--predicate", "subsystem != \"x\""],
        ["--style", "ndjson"],
        ["--style", "json", "--predicate", "subsystem != \"x\""],
        ["--predicate", "eventMessage CONTAINS \"padding\""],
    ])
    func peakMemoryStaysUnderTheBoundWithASlowReader(style: [String]) throws {
        let run = try slowlyRead(["show", "--info", "--debug"] + style + [Self.store.url.path])
        #expect(run.status == 0)
        #expect(run.bytes > 2 * Self.bound, "the output (\(run.bytes) bytes) is far larger than the bound")
        #expect(run.peak > 0, "VmHWM was read")
        if style.contains("ndjson") { #expect(run.lines == Self.records) }
        #expect(run.peak < Self.bound, "\(style): peak RSS \(run.peak >> 20) MiB")
    }
}
