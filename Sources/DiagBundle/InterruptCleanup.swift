import Dispatch
import Foundation
import Synchronization

/// Removes the temporary folders of unpacks in progress when SIGINT or SIGTERM stops the process,
/// then lets the signal end it as it would have. (SIGKILL cannot be caught: `BundleCache`
/// sweeps folders whose owner process is gone at its next use.)
///
/// The handlers exist only while a folder is tracked; the dispositions the process had before
/// are restored when the last one is released, so commands that handle these signals
/// themselves are left as they were.
///
/// What is tracked is a folder's name prefix in its parent (`.unpack-<pid>-`), not the folder:
/// the handlers are installed before the folder is made, so there is no moment at which the
/// folder exists and a signal would leave it behind (a signal between `mkdtemp` and the folder's
/// registration did, and a test that waits for the folder to appear before it signals relies on
/// this order). The prefix holds this process's id, so whatever has it is this process's.
final class InterruptCleanup: Sendable {
    static let shared = InterruptCleanup()

    /// Folders named `<prefix>…` in `directory`.
    private struct Pattern: Hashable {
        var directory: String
        var prefix: String
    }

    private struct State {
        var folders: [Pattern: Int] = [:]
        var sources: [any DispatchSourceSignal] = []
        var previous: [Int32: sigaction] = [:]
    }

    private let state = Mutex(State())
    private static let signals = [SIGINT, SIGTERM]

    /// Runs `body` with every folder named `<prefix>…` in `directory` removed should the process
    /// be interrupted meanwhile; `body` makes its folder there, after the handlers are installed.
    func removingFolders<T>(in directory: URL, prefix: String, during body: () throws -> T) rethrows -> T {
        let pattern = Pattern(directory: directory.path, prefix: prefix)
        track(pattern)
        defer { release(pattern) }
        return try body()
    }

    private func track(_ path: Pattern) {
        state.withLock { state in
            state.folders[path, default: 0] += 1
            guard state.sources.isEmpty else { return }
            for number in Self.signals {
                var ignore = sigaction()
                ignore.__sigaction_handler.sa_handler = SIG_IGN
                var old = sigaction()
                sigaction(number, &ignore, &old)
                state.previous[number] = old
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in interrupted(by: number) }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    private func release(_ path: Pattern) {
        state.withLock { state in
            state.folders[path, default: 1] -= 1
            if state.folders[path] == 0 { state.folders[path] = nil }
            guard state.folders.isEmpty else { return }
            state.sources.forEach { $0.cancel() }
            state.sources = []
            for (number, old) in state.previous {
                var restored = old
                sigaction(number, &restored, nil)
            }
            state.previous = [:]
        }
    }

    private func interrupted(by number: Int32) {
        let patterns = state.withLock { Array($0.folders.keys) }
        for pattern in patterns {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: pattern.directory)) ?? []
            for name in names where name.hasPrefix(pattern.prefix) {
                try? FileManager.default.removeItem(atPath: pattern.directory + "/" + name)
            }
        }
        var fallback = sigaction()
        fallback.__sigaction_handler.sa_handler = SIG_DFL
        sigaction(number, &fallback, nil)
        // To the process, not this thread: a dispatch worker may block the signal.
        kill(getpid(), number)
    }
}
