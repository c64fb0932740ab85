import CZlib

/// Inflates a gzip body (RFC 1952, one member or several in a row) through zlib, for OTLP/HTTP
/// requests with `Content-Encoding: gzip`, never past `limit` bytes of output: a small body that
/// inflates to gigabytes (a gzip bomb) is refused when its output reaches the limit, with only
/// `limit` bytes ever held.
public enum GzipDecoder {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The output would pass `limit` bytes.
        case tooLarge(limit: Int)
        /// Not gzip, corrupt, or cut short; zlib's reason and the input offset.
        case malformed(String)

        public var description: String {
            switch self {
            case .tooLarge(let limit): "the gzip body inflates to more than \(limit) bytes"
            case .malformed(let reason): "the body is not valid gzip: \(reason)"
            }
        }
    }

    public static func inflate(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        // 15 + 16: the largest window, gzip's header and trailer (not zlib's, not raw deflate).
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .malformed("zlib could not start (out of memory)")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = input
        let inputCount = input.count
        var ended = false
        var failure: Failure?
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputCount)
            while failure == nil {
                if ended {
                    // Another member follows (RFC 1952 allows several in a row).
                    guard stream.avail_in > 0 else { return }
                    inflateReset(&stream)
                    ended = false
                }
                let produced: Int
                let status = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = UInt32(chunkBuffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit {
                    failure = .tooLarge(limit: limit)
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END:
                    ended = true
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    failure = .malformed("it ends before its last member does (truncated at byte \(inputCount))")
                default:
                    let offset = inputCount - Int(stream.avail_in)
                    let reason = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                    failure = .malformed("\(reason) at byte \(offset)")
                }
            }
        }
        stream.next_in = nil
        stream.next_out = nil
        if let failure { throw failure }
        return output
    }
}
