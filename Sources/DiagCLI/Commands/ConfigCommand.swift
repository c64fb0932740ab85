import DiagClient
import DiagCommandLine
import DiagProtocol
import Foundation

/// `diag config`: what diagd keeps of each subsystem, like `log config`.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show or change which levels diagd keeps and stores, per subsystem and category.",
        discussion: """
            A mode has two parts: level:L (records below L are dropped) and persist:L (records below L \
            stay only in diagd's memory ring, shown by diag stream and gathered by diag collect), each \
            L one of debug, info, default. The default is level:debug,persist:info. A category's mode \
            overrides its subsystem's, which overrides the global one (no --subsystem). diagd keeps \
            the settings in its store, so they survive a restart. Without --mode, the settings in force \
            are listed. --reset removes the setting of --subsystem (and its categories') or of \
            --category, or with neither every setting, as log config --reset does.
            """)

    @Option(help: "The subsystem to configure, e.g. com.example.sync.", valueName: "subsystem")
    var subsystem: String?

    @Option(help: "A category of the subsystem.", valueName: "category")
    var category: String?

    @Option(help: "level:debug|info|default and/or persist:debug|info|default, comma-separated.", valueName: "mode")
    var mode: String?

    @Flag(help: "Remove the setting of --subsystem (with its categories') or --category; with neither, every setting.")
    var reset: Bool

    @Option(help: "diagd's socket (default: $DIAG_SOCKET, else $XDG_RUNTIME_DIR/diag/diagd.sock, else <store>/diagd.sock).", valueName: "path")
    var socket: String?

    mutating func validate() throws {
        if category != nil && subsystem == nil {
            throw ValidationError("--category needs --subsystem")
        }
        if let mode {
            do {
                _ = try LevelMode.parse(mode)
            } catch {
                throw ValidationError("The value '\(mode)' is invalid for '--mode <mode>': \(error)")
            }
        }
        if reset && mode != nil {
            throw ValidationError("--reset and --mode cannot be used together: --reset removes a setting, --mode changes it")
        }
        if mode == nil && !reset && (subsystem != nil || category != nil) {
            throw ValidationError("--subsystem and --category need --mode (e.g. --mode level:debug,persist:info); without them the settings are listed")
        }
    }

    func run() throws {
        let settings: [String]
        do {
            let session = try DaemonSession(socketPath: socket)
            settings = reset
                ? try session.resetConfiguration(subsystem: subsystem, category: category)
                : try session.configure(subsystem: subsystem, category: category, mode: mode)
        } catch {
            // Only diagd refusing the setting is bad input (65); a daemon that cannot be
            // reached, drops the connection or answers garbage is a runtime failure (1).
            let message = "\(error)"
            let failures = ["cannot connect", "cannot write", "diagd at ", "diagd sent", "diagd gave"]
            if failures.contains(where: message.hasPrefix) { throw RuntimeError(message) }
            throw InputError(message)
        }
        for line in settings { print(line) }
    }
}
