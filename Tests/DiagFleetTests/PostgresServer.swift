import DiagFleet
import Foundation
import TestSupport

/// One real PostgreSQL 15 for the whole test target: `initdb` into a temporary folder, then
/// `postgres` on a free loopback port with trust authentication, started on first use and stopped
/// when the test process exits. PostgreSQL refuses to run as root: as root (CI, this machine) it
/// runs as the `postgres` user Debian's package creates, with the folder handed to that user, and
/// `setpriv --pdeathsig` ends it even if the test process dies without cleaning up.
final class PostgresServer: Sendable {
    /// Started once; a server that cannot start fails each test that needs it, with the reason.
    private static let started: Result<PostgresServer, ServerError> = {
        do {
            return .success(try PostgresServer())
        } catch {
            return .failure(ServerError("cannot start PostgreSQL for the fleet tests: \(error)"))
        }
    }()

    static func shared() throws -> PostgresServer { try started.get() }

    let folder: String
    let port: Int
    /// A user of the server's superuser role, `postgres`.
    let adminURL: String
    private let databases = DatabaseCounter()

    private init() throws {
        let binaries = try Self.binaryFolder()
        var template = Array("/tmp/diag-fleet-pg.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ServerError("mkdtemp failed: \(String(cString: strerror(errno)))") }
        folder = String(cString: made)
        chmod(folder, 0o755)
        let asRoot = getuid() == 0
        if asRoot {
            guard let account = getpwnam("postgres") else {
                throw ServerError("running as root, and there is no postgres user to run PostgreSQL as (make setup installs postgresql, which creates it)")
            }
            chown(folder, account.pointee.pw_uid, account.pointee.pw_gid)
        }
        let data = folder + "/data"
        let initdb = try Self.run(asRoot: asRoot, [binaries + "/initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C"])
        guard initdb.status == 0 else { throw ServerError("initdb failed (\(initdb.status)): \(initdb.stderr)") }
        var lastError = ""
        for _ in 0..<5 {
            let port = try Self.freePort()
            let server = [binaries + "/postgres", "-D", data, "-k", folder, "-p", String(port),
                          "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                          "-c", "full_page_writes=off", "-c", "max_connections=60"]
            let process = try ServerThread.spawn(asRoot ? ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--pdeathsig=TERM", "--"] + server : server)
            let url = "postgresql://postgres@127.0.0.1:\(port)/postgres?connect_timeout=5"
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, process.isRunning {
                if (try? PostgresConnection(url: url)) != nil {
                    self.port = port
                    adminURL = url
                    PostgresServer.register(pid: process.processIdentifier, folder: folder)
                    return
                }
                usleep(100_000)
            }
            lastError = process.isRunning ? "did not accept connections within 30 s" : "exited with status \(process.terminationStatus) (port \(port) taken?)"
            if process.isRunning { process.terminate(); _ = process.waitForExit(seconds: 600) }
        }
        throw ServerError("postgres \(lastError)")
    }

    /// A new, empty database for one test, and its URL.
    func makeDatabase() throws -> String {
        let name = "fleet_test_\(databases.next())"
        let admin = try PostgresConnection(url: adminURL)
        try admin.execute("CREATE DATABASE \(name)")
        return "postgresql://postgres@127.0.0.1:\(port)/\(name)?connect_timeout=5"
    }

    /// PostgreSQL 15's programs: Debian keeps them out of PATH.
    static func binaryFolder() throws -> String {
        for candidate in ["/usr/lib/postgresql/15/bin"] + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted().reversed().map({ "/usr/lib/postgresql/\($0)/bin" })
        where FileManager.default.isExecutableFile(atPath: candidate + "/postgres") && FileManager.default.isExecutableFile(atPath: candidate + "/initdb") {
            return candidate
        }
        throw ServerError("no PostgreSQL server programs under /usr/lib/postgresql/*/bin; run make setup (apt-get install postgresql postgresql-contrib)")
    }

    static func run(asRoot: Bool, _ command: [String]) throws -> ProcessOutput {
        if asRoot {
            return try TestSupport.run("/usr/bin/setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups", "--"] + command, currentDirectory: "/tmp")
        }
        return try TestSupport.run(command[0], Array(command.dropFirst()), currentDirectory: "/tmp")
    }

    /// A loopback port nothing listens on now.
    static func freePort() throws -> Int { Int(try LoopbackPort.free()) }

    struct ServerError: Error, CustomStringConvertible, Sendable {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Stops the server (fast shutdown) and removes its folder when the test process exits.
    private static func register(pid: Int32, folder: String) {
        serverPID = pid
        serverFolder = strdup(folder)
        atexit {
            guard serverPID > 0 else { return }
            kill(serverPID, SIGINT)
            var status: Int32 = 0
            for _ in 0..<100 where waitpid(serverPID, &status, WNOHANG) == 0 { usleep(50_000) }
            if let folder = serverFolder { _ = try? FileManager.default.removeItem(atPath: String(cString: folder)) }
        }
    }
}

// Written once, when the server has started, before `atexit` can run; read only at exit.
nonisolated(unsafe) private var serverPID: Int32 = 0
nonisolated(unsafe) private var serverFolder: UnsafeMutablePointer<CChar>?

/// Spawns the server from a thread that lives as long as the server: the parent-death signal
/// (`--pdeathsig`) follows the spawning *thread*, so a pool thread that retires must not be it.
enum ServerThread {
    static func spawn(_ command: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        // The postgres user may not enter the test's directory (root's checkout).
        process.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        let outcome = SpawnOutcome()
        let thread = Thread {
            do {
                try process.spawn()
                outcome.finish(nil)
                _ = process.waitForExit(seconds: 600)
            } catch {
                outcome.finish(error)
            }
        }
        thread.start()
        if let error = outcome.wait() { throw error }
        return process
    }
}

/// The spawning thread's result, handed to the test that waits for it.
final class SpawnOutcome: @unchecked Sendable {
    // Safe: `error` is written once before `done` is signalled and read only after waiting on it.
    private let done = DispatchSemaphore(value: 0)
    private var error: (any Error)?

    func finish(_ error: (any Error)?) {
        self.error = error
        done.signal()
    }

    func wait() -> (any Error)? {
        done.wait()
        return error
    }
}

/// Numbers for the per-test databases.
final class DatabaseCounter: @unchecked Sendable {
    // Safe: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
