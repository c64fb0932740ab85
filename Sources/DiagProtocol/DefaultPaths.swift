import Foundation

/// The default store and socket of every program (`diag`, `diagd`, the client library), in one
/// place so that they cannot disagree:
/// - store: `$DIAG_STORE`, else `$XDG_STATE_HOME/diag/system_logs.logarchive`, else
///   `~/.local/state/diag/system_logs.logarchive`;
/// - socket: `$DIAG_SOCKET`, else `$XDG_RUNTIME_DIR/diag/diagd.sock`, else the store's `diagd.sock`.
///
/// The XDG Base Directory specification says a relative `$XDG_STATE_HOME` or
/// `$XDG_RUNTIME_DIR` is invalid and must be ignored; empty variables count as unset.
public enum DefaultPaths {
    public static func store(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let store = environment["DIAG_STORE"], !store.isEmpty { return store }
        if let state = xdgDirectory("XDG_STATE_HOME", environment) { return state + "/diag/system_logs.logarchive" }
        return home(environment) + "/.local/state/diag/system_logs.logarchive"
    }

    public static func socket(store: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let socket = environment["DIAG_SOCKET"], !socket.isEmpty { return socket }
        if let runtime = xdgDirectory("XDG_RUNTIME_DIR", environment) { return runtime + "/diag/diagd.sock" }
        return (store ?? self.store(environment: environment)) + "/diagd.sock"
    }

    /// An XDG base directory variable when it holds an absolute path, else nil (unset, empty or relative).
    static func xdgDirectory(_ name: String, _ environment: [String: String]) -> String? {
        guard let value = environment[name], value.hasPrefix("/") else { return nil }
        return value
    }

    static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }
}
