import Foundation
import Glibc

/// Reads HTTP/1.1 requests from a socket: request line, headers, and a body framed by
/// `Content-Length` or chunked; answers `Expect: 100-continue`.
struct HTTPRequestReader {
    struct Parsed {
        var method: String
        var path: String
        var headers: [String: String]
        var body: [UInt8]
    }

    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next request, or nil when the connection ends.
    mutating func next() -> Parsed? {
        guard let headEnd = fill(until: { $0.firstRange(of: [13, 10, 13, 10]) }) else { return nil }
        let head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<headEnd.upperBound)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            let continuing = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
            _ = continuing.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        var body: [UInt8] = []
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                guard let lineEnd = fill(until: { $0.firstRange(of: [13, 10]) }) else { return nil }
                let sizeText = String(decoding: buffer[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
                buffer.removeSubrange(..<lineEnd.upperBound)
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
                guard fill(until: { $0.count >= size + 2 ? 0..<0 : nil }) != nil else { return nil }
                body += buffer[..<size]
                buffer.removeSubrange(..<(size + 2))
                if size == 0 { break }
            }
        } else if let length = headers["content-length"].flatMap({ Int($0) }), length > 0 {
            guard fill(until: { $0.count >= length ? 0..<0 : nil }) != nil else { return nil }
            body = Array(buffer[..<length])
            buffer.removeSubrange(..<length)
        }
        return Parsed(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: body)
    }

    /// Reads until `found` says the buffer holds what is wanted; nil at end of stream.
    private mutating func fill(until found: ([UInt8]) -> Range<Int>?) -> Range<Int>? {
        while true {
            if let range = found(buffer) { return range }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }
}
