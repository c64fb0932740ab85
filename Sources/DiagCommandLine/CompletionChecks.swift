import Synchronization

/// Checks run after a command's `run()` returns, before the runner reports success: a way for
/// a library to turn something it counted during the run into the command's error (a `MATCHES`
/// that ICU could not decide: `InputError`, exit 65) without every command asking for it.
public enum CompletionChecks {
    private static let checks = Mutex<[String: @Sendable () throws -> Void]>([:])

    /// Adds `check` under `name`; adding the same name again replaces it (commands may install
    /// a check from several places).
    public static func install(_ name: String, _ check: @escaping @Sendable () throws -> Void) {
        checks.withLock { $0[name] = check }
    }

    static func run() throws {
        let installed = checks.withLock { $0 }
        for name in installed.keys.sorted() { try installed[name]?() }
    }
}
