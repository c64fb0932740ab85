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
final class InterruptCleanup: Sendable {
    static let shared = InterruptCleanup()

    private struct State {
        var folders: [String: Int] = [:]
        var sources: [any DispatchSourceSignal] = []
        var previous: [Int32: sigaction] = [:]
    }

    private let state = Mutex(State())
    private static let signals = [SIGINT, SIGTERM]

    /// Runs `body` with `folder` removed should the process be interrupted meanwhile.
    func removing<T>(_ folder: URL, during body: () throws -> T) rethrows -> T {
        track(folder.path)
        defer { release(folder.path) }
        return try body()
    }

    private func track(_ path: String) {
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

    private func release(_ path: String) {
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
        let folders = state.withLock { Array($0.folders.keys) }
        for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
        var fallback = sigaction()
        fallback.__sigaction_handler.sa_handler = SIG_DFL
        sigaction(number, &fallback, nil)
        // To the process, not this thread: a dispatch worker may block the signal.
        kill(getpid(), number)
    }
}
