import DiagModel
import Foundation
import Synchronization

/// Reads a file and hashes it on a thread of its own, one buffer ahead of the caller, who writes
/// the same buffers into the archive: the archive's thread feeds the compressor, which is the
/// collection's bottleneck, instead of also reading and hashing (two thirds of its work before).
///
/// Four 1 MiB buffers go round: the reader fills and hashes one while the caller writes another.
final class HashingReader: @unchecked Sendable {
    // Safe: the queues, `failure`, `digest` and `stopped` are in `state`, a `Mutex`; a buffer is
    // touched by the reader thread only while it is in neither queue, and by the caller only
    // while it is in `filled` (taken) until handed back to `free`.
    static let bufferSize = 1 << 20
    static let bufferCount = 4

    private let storage: UnsafeMutableRawBufferPointer
    private let state = Mutex(State())

    private struct State {
        var free: [Int] = Array(0..<HashingReader.bufferCount)
        var filled: [(buffer: Int, count: Int)] = []
        var failure: (any Error)?
        var digest: String?
        var stopped = false
        var finished = false
        /// The reader thread waiting for a free buffer, the caller for a filled one or the end.
        var waiting = ParkedThreads()
    }

    private init() {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize * Self.bufferCount, alignment: 4096)
    }

    deinit { storage.deallocate() }

    /// Reads the first `size` bytes of `descriptor` (which must stay open and unchanged until this
    /// returns); `adjust` may rewrite each buffer (given its offset in the file) before it is
    /// hashed; `consume` gets the buffers in order on the calling thread. Returns the SHA-256 of
    /// what `consume` got, as hex.
    static func read(
        _ descriptor: Int32, size: Int64, sourceName: String,
        adjust: @escaping @Sendable (UnsafeMutableRawBufferPointer, Int64) -> Void,
        consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> String {
        try read(size: size, adjust: adjust, consume: consume) { bytes, offset in
            var count = 0
            while count < bytes.count {
                let got = pread(descriptor, bytes.baseAddress! + count, bytes.count - count, off_t(offset) + off_t(count))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else {
                    throw BundleError.failure(got < 0
                        ? "cannot read \(sourceName): \(String(cString: strerror(errno)))"
                        : "\(sourceName) shrank while it was archived (\(size - offset - Int64(count)) bytes missing)")
                }
                count += got
            }
        }
    }

    /// The same for a source read by `fill`, which fills the whole buffer it is given with the
    /// bytes at the offset it is given, or throws; it runs on the reader thread.
    static func read(
        size: Int64,
        adjust: @escaping @Sendable (UnsafeMutableRawBufferPointer, Int64) -> Void,
        consume: (UnsafeRawBufferPointer) throws -> Void,
        fill: @escaping @Sendable (UnsafeMutableRawBufferPointer, Int64) throws -> Void
    ) throws -> String {
        let reader = HashingReader()
        let thread = Thread { reader.produce(size: size, fill: fill, adjust: adjust) }
        thread.start()
        defer { reader.stopAndWait() }
        while let (buffer, count) = try reader.nextFilled() {
            try consume(UnsafeRawBufferPointer(rebasing: reader.slice(buffer)[0..<count]))
            reader.release(buffer)
        }
        return try reader.result()
    }

    private func slice(_ buffer: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: storage[(buffer * Self.bufferSize)..<((buffer + 1) * Self.bufferSize)])
    }

    /// The reader thread's work: fill, adjust and hash each free buffer in turn.
    private func produce(size: Int64, fill: (UnsafeMutableRawBufferPointer, Int64) throws -> Void,
                         adjust: (UnsafeMutableRawBufferPointer, Int64) -> Void) {
        var hasher = SHA256()
        var offset: Int64 = 0
        var outcome: (any Error)?
        while offset < size {
            let buffer = state.wait(on: \.waiting) { state -> Int?? in
                if state.stopped { return .some(nil) }
                return state.free.isEmpty ? nil : .some(state.free.removeFirst())
            }
            guard let buffer = buffer ?? nil else { break }
            let count = Int(min(Int64(Self.bufferSize), size - offset))
            let chunk = UnsafeMutableRawBufferPointer(rebasing: slice(buffer)[0..<count])
            do {
                try fill(chunk, offset)
            } catch {
                outcome = error
                break
            }
            adjust(chunk, offset)
            hasher.update(UnsafeRawBufferPointer(chunk))
            offset += Int64(count)
            state.withLock { state in
                state.filled.append((buffer, count))
                state.waiting.wakeAll()
            }
        }
        let digest = hasher.hexDigest()
        state.withLock { state in
            if let outcome { state.failure = outcome } else if !state.stopped { state.digest = digest }
            state.finished = true
            state.waiting.wakeAll()
        }
    }

    /// The next buffer read, nil once the file is read; rethrows the reader's error.
    private func nextFilled() throws -> (Int, Int)? {
        let next = state.wait(on: \.waiting) { state -> Result<(Int, Int)?, any Error>? in
            if !state.filled.isEmpty { return .success(state.filled.removeFirst()) }
            guard state.finished else { return nil }
            if let failure = state.failure { return .failure(failure) }
            return .success(nil)
        }
        return try next!.get()
    }

    private func release(_ buffer: Int) {
        state.withLock { state in
            state.free.append(buffer)
            state.waiting.wakeAll()
        }
    }

    private func result() throws -> String {
        let (failure, digest) = state.withLock { ($0.failure, $0.digest) }
        if let failure { throw failure }
        guard let digest else { throw BundleError.failure("the file was not read to its end") }
        return digest
    }

    /// Stops the reader thread (if the caller gave up early) and waits until it is done with the
    /// descriptor and the buffers.
    private func stopAndWait() {
        state.withLock { state in
            state.stopped = true
            state.waiting.wakeAll()
        }
        _ = state.wait(on: \.waiting) { $0.finished ? true : nil }
    }
}
