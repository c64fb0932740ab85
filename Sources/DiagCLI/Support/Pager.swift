import DiagOutput
import Foundation

/// The pager `log` and journalctl users expect on a terminal: `$DIAG_PAGER`, else `$PAGER`,
/// else `less -FRX` (quit at once when the output fits a screen, keep colours, leave the text
/// on the screen). Never when standard output is not a terminal, nor with `--no-pager`; an empty
/// or `cat` pager turns it off too, as git does.
final class Pager {
    private let process: Process
    private var finished = false

    private init(process: Process) {
        self.process = process
    }

    /// The pager command for this environment, nil for none.
    static func command(environment: [String: String]) -> String? {
        let chosen = environment["DIAG_PAGER"] ?? environment["PAGER"] ?? "less -FRX"
        let trimmed = chosen.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
    }

    /// Starts the pager with standard output going into it, when standard output is a terminal
    /// and paging is not turned off. A pager that cannot start leaves the output on the terminal.
    static func start(disabled: Bool) -> Pager? {
        guard !disabled, isatty(STDOUT_FILENO) == 1,
              let command = command(environment: ProcessInfo.processInfo.environment) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardInput = pipe
        do {
            try process.run()
        } catch {
            return nil
        }
        // A pager quit early (q in less) closes the pipe: writes then fail with EPIPE, which the
        // output sink notes and stops writing, instead of SIGPIPE killing diag with the pager
        // still on the terminal. Ctrl-C is the pager's to handle; diag ends when the pipe closes.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        dup2(pipe.fileHandleForWriting.fileDescriptor, STDOUT_FILENO)
        try? pipe.fileHandleForWriting.close()
        try? pipe.fileHandleForReading.close()
        return Pager(process: process)
    }

    /// Sends what `sink` holds, ends the output and waits for the user to leave the pager;
    /// once, after the last write (later calls do nothing).
    func finish(flushing sink: OutputSink) {
        guard !finished else { return }
        finished = true
        sink.flush()
        close(STDOUT_FILENO)
        process.waitUntilExit()
    }
}
