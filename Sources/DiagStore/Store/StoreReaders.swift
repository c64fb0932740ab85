import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Readers of a store say that they are reading, so that diagd's background work leaves them the
/// cores. diagd's search index builder is low-priority work (issue 15), held to half a core; on a
/// 2-core machine that half a core was taken from the query a user was waiting for (a common
/// `CONTAINS` over a live store of 10M records: 1.29 s with diagd stopped, 1.86 s beside it).
///
/// Each reader holds a shared `flock` on `<store>/readers.lock` while its read-only `LogStore`
/// is open (`Mark`); diagd's finisher asks between two batches of the records it indexes whether
/// anyone holds one (`Presence`) and, for a bounded time, waits while someone does
/// (`CPUSharePacer`). A cursor of a store (`LogStore.records`) holds the store's mark too: the
/// read outlives the `LogStore` value.
///
/// Nothing depends on it for correctness: a reader that cannot open the file (diagd never ran on
/// the store, an older diagd, no permission, not a regular file) reads as before, and a reader
/// that dies drops its lock with its descriptors.
public enum StoreReaders {
    /// A reader's mark: the shared lock, dropped when the value goes.
    final class Mark {
        private let descriptor: Int32

        /// Nil when the file is not there to lock (or is no regular file: the store may be a
        /// stranger's, and a FIFO by that name must not hang the reader; hence `O_NONBLOCK`).
        init?(storeURL: URL) {
            let descriptor = open(StoreLayout.readersLockURL(storeURL).path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard descriptor >= 0 else { return nil }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  flock(descriptor, LOCK_SH | LOCK_NB) == 0
            else {
                close(descriptor)
                return nil
            }
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }
    }

    /// diagd's side: the file, created if need be, and whether a reader holds it now.
    public final class Presence: Sendable {
        private let descriptor: Int32

        /// Nil when the file cannot be created or opened (the builder then never waits).
        public init?(storeURL: URL) {
            let descriptor = open(StoreLayout.readersLockURL(storeURL).path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
            guard descriptor >= 0 else { return nil }
            self.descriptor = descriptor
        }

        /// True while some process holds a reader's mark: the exclusive lock cannot be taken.
        /// When it can, it is given back at once (a reader opening meanwhile reads unmarked).
        public var readersPresent: Bool {
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
            flock(descriptor, LOCK_UN)
            return false
        }

        deinit { close(descriptor) }
    }
}
