import Foundation

/// One HTTP request to the OTLP receiver, from its headers to its answer: what its headers
/// allow, and its body as it arrives, held to `maximumBodyBytes`.
///
/// Owned by the connection's thread (libmicrohttpd calls one connection's handler on its thread).
final class OTLPExchange {
    /// Bodies over this are refused with 413, from `Content-Length` before any is read, else
    /// once that much arrived (the rest is read and dropped, so memory stays bounded).
    static let maximumBodyBytes = 4 << 20
    /// A gzip body is refused with 413 when it inflates past this.
    static let maximumInflatedBytes = 16 << 20
    static let path = "/v1/logs"

    let encoding: OTLPAnswer.Encoding
    let gzip: Bool
    /// Set when the headers alone decide the answer (404, 405, 413, 415).
    let refusal: OTLPAnswer?
    private(set) var body: [UInt8] = []
    private(set) var overflowed = false
    var answered = false

    init(path: String, method: String, contentType: String?, contentEncoding: String?, contentLength: String?) {
        let mediaType = contentType.map { $0.split(separator: ";", maxSplits: 1).first.map(String.init) ?? "" }?
            .trimmingCharacters(in: .whitespaces).lowercased()
        encoding = switch mediaType {
        case "application/x-protobuf": .protobuf
        case "application/json": .json
        default: .text
        }
        let codings = (contentEncoding ?? "").lowercased().trimmingCharacters(in: .whitespaces)
        gzip = codings == "gzip"
        if path != Self.path {
            refusal = .failure(404, "no such path '\(path.prefix(200))': OTLP logs are taken at POST \(Self.path)", encoding: encoding)
        } else if method != "POST" {
            var answer = OTLPAnswer.failure(405, "method \(method.prefix(20)) is not allowed on \(Self.path): send POST", encoding: encoding)
            answer.allow = "POST"
            refusal = answer
        } else if let length = contentLength.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), length > Self.maximumBodyBytes {
            refusal = Self.tooLarge(announced: length, encoding: encoding)
        } else if encoding == .text {
            refusal = .failure(415, "Content-Type '\((contentType ?? "none").prefix(100))' is not taken: send application/x-protobuf or application/json", encoding: .text)
        } else if !codings.isEmpty && codings != "identity" && !gzip {
            refusal = .failure(415, "Content-Encoding '\(codings.prefix(100))' is not taken: send gzip or no encoding", encoding: encoding)
        } else {
            refusal = nil
        }
    }

    static func tooLarge(announced: Int?, encoding: OTLPAnswer.Encoding) -> OTLPAnswer {
        let size = announced.map { "of \($0) bytes " } ?? ""
        return .failure(413, "the body \(size)is over the limit of \(maximumBodyBytes) bytes (4 MiB); send smaller batches", encoding: encoding)
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard !overflowed else { return }
        guard body.count + bytes.count <= Self.maximumBodyBytes else {
            overflowed = true
            body = []
            return
        }
        body.append(contentsOf: bytes)
    }
}
