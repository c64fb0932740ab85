import Foundation

/// Takes the log store's snapshot on a thread of its own and hands each finished chunk file to
/// the archiving thread, so copying one chunk overlaps hashing and compressing the previous one.
final class SnapshotJob: @unchecked Sendable {
    // Safe: `selection` (and the redactor inside it) is used only by the job's thread once
    // started, and by no one else until `next()` has returned nil, which happens after the
    // thread's last use, under `condition`. `ready`, `finished` and `failure` change only under
    // `condition`.
    private let selection: StoreSelection
    private let destination: URL
    private let prefix: String
    private let condition = NSCondition()
    private var ready: [String] = []
    private var finished = false
    private var failure: (any Error)?

    /// `prefix` is the store folder's path inside the bundle, put before each chunk's path.
    init(selection: StoreSelection, destination: URL, prefix: String) {
        self.selection = selection
        self.destination = destination
        self.prefix = prefix
    }

    func start() {
        let thread = Thread { [self] in
            var error: (any Error)?
            do {
                try selection.write(to: destination) { file in
                    condition.withLock {
                        ready.append("\(prefix)/Persist/\(file)")
                        condition.broadcast()
                    }
                }
            } catch let caught {
                error = caught
            }
            condition.withLock {
                failure = error
                finished = true
                condition.broadcast()
            }
        }
        thread.start()
    }

    /// The next finished chunk's path in the bundle; nil once the snapshot is complete.
    /// Throws the snapshot's error.
    func next() throws -> String? {
        try condition.withLock {
            while ready.isEmpty && !finished { condition.wait() }
            if !ready.isEmpty { return ready.removeFirst() }
            if let failure { throw failure }
            return nil
        }
    }

    /// Waits for the end of the job, ignoring its outcome: for cleanup after another failure.
    func drain() {
        while (try? next()) != nil {}
    }
}
