import CZlib

/// Compresses whole bodies into the gzip format (RFC 1952) through zlib, for OTLP/HTTP's
/// `Content-Encoding: gzip`. Owns one zlib deflate stream, reset between bodies so its
/// ~256 KiB of state is allocated once.
///
/// Not thread-safe: one sink compresses on one thread.
public final class GzipEncoder {
    private var stream = z_stream()

    /// - Parameter level: zlib's level, 1 (fastest) to 9 (smallest); 6 is zlib's default.
    public init(level: Int32 = 6) throws(GzipError) {
        // 15 + 16: the largest window, written with a gzip header and trailer instead of zlib's.
        let status = deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                   zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw GzipError(status: status, during: "deflateInit2") }
    }

    /// `bytes` as one gzip member.
    public func compress(_ bytes: [UInt8]) throws(GzipError) -> [UInt8] {
        let reset = deflateReset(&stream)
        guard reset == Z_OK else { throw GzipError(status: reset, during: "deflateReset") }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = UInt32(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = UInt32(outputBuffer.count)
                defer {
                    stream.next_in = nil
                    stream.next_out = nil
                }
                return deflate(&stream, Z_FINISH)
            }
        }
        // deflateBound leaves room for everything, so one Z_FINISH call must end the stream.
        guard status == Z_STREAM_END else { throw GzipError(status: status, during: "deflate") }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    deinit {
        deflateEnd(&stream)
    }
}

@available(*, unavailable)
extension GzipEncoder: Sendable {}

/// A zlib call that failed, with zlib's status code.
public struct GzipError: Error, Sendable, CustomStringConvertible {
    public var status: Int32
    public var call: String

    public init(status: Int32, during call: String) {
        self.status = status
        self.call = call
    }

    public var description: String {
        let meaning = switch status {
        case Z_MEM_ERROR: "out of memory"
        case Z_STREAM_ERROR: "invalid parameter or stream state"
        case Z_BUF_ERROR: "no room to finish the output"
        case Z_VERSION_ERROR: "zlib version mismatch"
        default: "status \(status)"
        }
        return "zlib error in \(call): \(meaning)"
    }
}
