import Foundation

/// Where the default store is (DESIGN.md): `$DIAG_STORE`, else
/// `$XDG_STATE_HOME/diag/system_logs.logarchive`, else `~/.local/state/diag/system_logs.logarchive`.
enum StoreLocation {
    static func defaultStore(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let store = environment["DIAG_STORE"], !store.isEmpty {
            return URL(fileURLWithPath: store, isDirectory: true)
        }
        let state: URL
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            state = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            state = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/state", isDirectory: true)
        }
        return state.appendingPathComponent("diag/system_logs.logarchive", isDirectory: true)
    }

    /// `--store DIR` when given, else the default store.
    static func resolve(_ option: String?) -> URL {
        option.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? defaultStore()
    }
}
