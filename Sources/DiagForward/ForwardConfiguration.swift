import Foundation
import Synchronization

/// diagd's forwards: `--forward URL` options and the `forward URL` lines of a config file
/// (`diagd --config FILE`), one per line, `#` starting a comment:
///
/// ```
/// # /etc/diag/diagd.conf
/// forward rfc5424+tcp://logs.example.com:514?facility=local0
/// forward otlp+http://collector.example.com:4318/v1/logs
/// ```
public struct ForwardConfiguration: Sendable, Hashable {
    public private(set) var destinations: [ForwardDestination] = []
    /// Where each destination came from, for the error about a duplicate.
    private var origins: [String: String] = [:]

    public init() {}

    /// Adds a `--forward` option's URL.
    public mutating func add(option url: String) throws(ForwardConfigurationError) {
        try add(try ForwardDestination(parsing: url), origin: "--forward")
    }

    /// Reads a config file; an error names the file, line and column and says what is accepted.
    public mutating func read(file path: String) throws(ForwardConfigurationError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ForwardConfigurationError("\(path): cannot read the config file (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ForwardConfigurationError("\(path): the config file is not UTF-8 text")
        }
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let content = line.prefix { $0 != "#" }
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let keyword = words.first else { continue }
            let location = "\(path):\(index + 1):\(content.distance(from: content.startIndex, to: keyword.startIndex) + 1)"
            guard keyword == "forward" else {
                throw ForwardConfigurationError("\(location): unknown setting '\(keyword)'; accepted: forward URL (\(ForwardDestination.accepted))")
            }
            guard words.count == 2 else {
                throw ForwardConfigurationError(
                    "\(location): 'forward' takes one URL, found \(words.count - 1) words; accepted: forward \(ForwardDestination.accepted)")
            }
            let urlColumn = content.distance(from: content.startIndex, to: words[1].startIndex) + 1
            do {
                try add(try ForwardDestination(parsing: String(words[1])), origin: "\(path):\(index + 1)")
            } catch {
                throw ForwardConfigurationError("\(path):\(index + 1):\(urlColumn): \(error)")
            }
        }
    }

    private mutating func add(_ destination: ForwardDestination, origin: String) throws(ForwardConfigurationError) {
        if let first = origins[destination.url] {
            throw ForwardConfigurationError("forward \(destination.url) is given twice (\(first), then \(origin)); each forward keeps one cursor, give it once")
        }
        origins[destination.url] = origin
        destinations.append(destination)
    }
}

extension ForwardDestination {
    /// The sink that delivers to this destination; nothing connects before the first delivery.
    public func makeSink(hostname: String = RFC5424Encoder.localHostname(), cancellation: ForwardCancellation) -> any ForwardSink {
        switch kind {
        case let .rfc5424TCP(facility):
            return RFC5424TCPSink(host: host, port: port, encoder: RFC5424Encoder(facility: facility, hostname: hostname), cancellation: cancellation)
        case let .otlpHTTP(path):
            let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            guard let factory = Self.httpSinkFactory.withLock({ $0 }) else {
                preconditionFailure("otlp+http forward without an HTTP sink: the program must call OTLPHTTPSink.register() (DiagForwardHTTP)")
            }
            return factory(URL(string: "http://\(authority)\(path)")!, hostname, cancellation)
        }
    }

    /// Makes the sink of `otlp+http` destinations: (endpoint, host name, cancellation).
    public typealias HTTPSinkFactory = @Sendable (URL, String, ForwardCancellation) -> any ForwardSink

    /// Set by `OTLPHTTPSink.register()`. The HTTP sink lives in DiagForwardHTTP, which only diagd
    /// links: URLSession's FoundationNetworking loads libcurl and some twenty libraries into every
    /// process linking it, and `diag`, which encodes OTLP for `diag export` but never sends it,
    /// would pay for them on every start.
    public static let httpSinkFactory = Mutex<HTTPSinkFactory?>(nil)
}
