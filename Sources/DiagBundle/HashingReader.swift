import Foundation

/// Reads a file and hashes it on a thread of its own, one buffer ahead of the caller, who writes
/// the same buffers into the archive: the archive's thread feeds the compressor, which is the
/// collection's bottleneck, instead of also reading and hashing (two thirds of its work before).
///
/// Four 1 MiB buffers go round: the reader fills and hashes one while the caller writes another.
final class HashingReader: @unchecked Sendable {
    // Safe: the queues, `failure`, `digest` and `stopped` are read and written under `condition`;
    // a buffer is touched by the reader thread only while it is in neither queue, and by the
    // caller only while it is in `filled` (taken) until handed back to `free`.
    static let bufferSize = 1 << 20
    static let bufferCount = 4

    private let condition = NSCondition()
    private let storage: UnsafeMutableRawBufferPointer
    private var free: [Int] = Array(0..<HashingReader.bufferCount)
    private var filled: [(buffer: Int, count: Int)] = []
    private var failure: (any Error)?
    private var digest: String?
    private var stopped = false
    private var finished = false

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
            let buffer: Int? = condition.withLock {
                while free.isEmpty && !stopped { condition.wait() }
                return stopped ? nil : free.removeFirst()
            }
            guard let buffer else { break }
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
            condition.withLock {
                filled.append((buffer, count))
                condition.broadcast()
            }
        }
        condition.withLock {
            if let outcome { failure = outcome } else if !stopped { digest = hasher.hexDigest() }
            finished = true
            condition.broadcast()
        }
    }

    /// The next buffer read, nil once the file is read; rethrows the reader's error.
    private func nextFilled() throws -> (Int, Int)? {
        try condition.withLock {
            while filled.isEmpty && !finished { condition.wait() }
            if !filled.isEmpty { return filled.removeFirst() }
            if let failure { throw failure }
            return nil
        }
    }

    private func release(_ buffer: Int) {
        condition.withLock {
            free.append(buffer)
            condition.broadcast()
        }
    }

    private func result() throws -> String {
        try condition.withLock {
            if let failure { throw failure }
            guard let digest else { throw BundleError.failure("the file was not read to its end") }
            return digest
        }
    }

    /// Stops the reader thread (if the caller gave up early) and waits until it is done with the
    /// descriptor and the buffers.
    private func stopAndWait() {
        condition.withLock {
            stopped = true
            condition.broadcast()
            while !finished { condition.wait() }
        }
    }
}
