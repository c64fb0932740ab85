import DiagProtocol
import Foundation

/// The store a command reads or writes: `--store DIR` when given, else the default store
/// (`DefaultPaths.store`, the same rule as diagd's).
enum StoreLocation {
    static func defaultStore(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        URL(fileURLWithPath: DefaultPaths.store(environment: environment), isDirectory: true)
    }

    static func resolve(_ option: String?) -> URL {
        option.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? defaultStore()
    }
}
