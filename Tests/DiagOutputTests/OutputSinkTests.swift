import DiagOutput
import Foundation
import Testing
import TestSupport

/// Small writes are buffered, blocks as large as the buffer go out directly: the file gets
/// every byte in order either way.
@Suite struct OutputSinkTests {
    @Test func smallAndLargeWritesKeepTheirOrder() throws {
        let folder = try TemporaryDirectory("diag-sink")
        let path = folder.file("out.bin").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        var expected: [UInt8] = []
        do {
            let sink = OutputSink(descriptor: descriptor, capacity: 64)
            for size in [1, 10, 63, 64, 65, 3, 200, 0, 5, 128, 64, 7] {
                let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ size) }
                sink.write(bytes)
                expected += bytes
            }
            sink.write("tail")
            expected += Array("tail".utf8)
            sink.flush()
            #expect(sink.failure == nil)
        }
        close(descriptor)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected)
    }
}
