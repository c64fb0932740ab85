@testable import DiagBundle
import DiagStore
import Foundation
import Testing
import TestSupport

/// The reader thread hands over every byte once, in order, with the digest of what it handed
/// over, and stops cleanly when the caller or the file fails.
struct HashingReaderTests {
    private func withFile(_ bytes: [UInt8], _ body: (Int32) throws -> Void) throws {
        let folder = try TemporaryDirectory()
        try Data(bytes).write(to: folder.file("input"))
        let descriptor = open(folder.file("input").path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        try body(descriptor)
    }

    @Test(arguments: [0, 1, HashingReader.bufferSize - 1, HashingReader.bufferSize, HashingReader.bufferSize * 5 + 7])
    func everyByteArrivesInOrderWithItsDigest(size: Int) throws {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        try withFile(bytes) { descriptor in
            var received: [UInt8] = []
            let digest = try HashingReader.read(descriptor, size: Int64(size), sourceName: "input", adjust: { _, _ in }) {
                received.append(contentsOf: $0)
            }
            #expect(received == bytes)
            #expect(digest == SHA256.hexDigest(of: bytes))
        }
    }

    @Test func adjustedBytesAreWhatIsHashedAndHandedOver() throws {
        let bytes = [UInt8](repeating: 2, count: HashingReader.bufferSize + 100)
        try withFile(bytes) { descriptor in
            var received: [UInt8] = []
            let digest = try HashingReader.read(descriptor, size: Int64(bytes.count), sourceName: "input",
                                                adjust: SealedChunk.useRollbackJournal) { received.append(contentsOf: $0) }
            var expected = bytes
            expected[18] = 1
            expected[19] = 1
            #expect(received == expected)
            #expect(digest == SHA256.hexDigest(of: expected))
        }
    }

    @Test func aFileShorterThanSaidIsAnErrorNamingIt() throws {
        try withFile([UInt8](repeating: 7, count: 5_000)) { descriptor in
            #expect {
                _ = try HashingReader.read(descriptor, size: 3 * Int64(HashingReader.bufferSize), sourceName: "chunk.sqlite",
                                           adjust: { _, _ in }) { _ in }
            } throws: { error in
                "\(error)".contains("chunk.sqlite shrank while it was archived")
            }
        }
    }

    @Test func aFailingConsumerStopsTheReader() throws {
        struct Refused: Error {}
        try withFile([UInt8](repeating: 9, count: HashingReader.bufferSize * 12)) { descriptor in
            var calls = 0
            #expect(throws: Refused.self) {
                _ = try HashingReader.read(descriptor, size: Int64(HashingReader.bufferSize * 12), sourceName: "input",
                                           adjust: { _, _ in }) { _ in
                    calls += 1
                    if calls == 2 { throw Refused() }
                }
            }
            #expect(calls == 2)
        }
    }
}
