import DiagOutput
import Foundation
import Testing
import TestSupport

/// Standard output as a pipe gets a larger buffer; anything else is left as it is.
@Suite struct OutputSinkPipeTests {
    private let getPipeSize: Int32 = 1032  // F_GETPIPE_SZ

    @Test func aPipeIsWidenedToOneMebibyte() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let before = fcntl(ends[1], getPipeSize)
        #expect(before > 0)
        OutputSink.widenPipe(ends[1])
        let limit = (try? String(contentsOfFile: "/proc/sys/fs/pipe-max-size", encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        #expect(fcntl(ends[1], getPipeSize) == (limit >= 1 << 20 ? 1 << 20 : before), "pipe-max-size is \(limit)")
        // What was written before and after still arrives whole.
        let sink = OutputSink(descriptor: ends[1], capacity: 16)
        sink.write(Array(repeating: UInt8(ascii: "x"), count: 100_000))
        sink.flush()
        var received = [UInt8](repeating: 0, count: 200_000)
        var total = 0
        received.withUnsafeMutableBytes { buffer in
            while total < 100_000 {
                let count = read(ends[0], buffer.baseAddress! + total, buffer.count - total)
                if count <= 0 { break }
                total += count
            }
        }
        #expect(total == 100_000)
        #expect(received[..<total].allSatisfy { $0 == UInt8(ascii: "x") })
    }

    @Test func aFileIsLeftAlone() throws {
        let folder = try TemporaryDirectory("output-sink-pipe")
        let path = folder.file("out").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        OutputSink.widenPipe(descriptor)
        #expect(fcntl(descriptor, getPipeSize) == -1, "not a pipe")
        OutputSink.widenPipe(-1)  // a closed or bad descriptor is ignored
    }
}
