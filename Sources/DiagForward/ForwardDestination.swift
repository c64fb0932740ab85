import Foundation

/// Where one forward goes, parsed from its URL (`diagd --forward URL`, a `forward` line of the
/// config file):
///
/// - `rfc5424+tcp://HOST:PORT[?facility=N]`: RFC 5424 over TCP, octet-counted (rsyslog, syslog-ng);
///   the facility is a number 0…23 or a name (`local0`, `daemon`…), `user` (1) by default.
/// - `otlp+http://HOST:PORT/PATH` (`/v1/logs` when no path): OTLP/HTTP with JSON bodies.
///
/// HOST is a name, an IPv4 address or an IPv6 address in brackets; PORT is required.
public struct ForwardDestination: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case rfc5424TCP(facility: Int)
        case otlpHTTP(path: String)
    }

    public let kind: Kind
    /// Without brackets for IPv6.
    public let host: String
    public let port: UInt16
    /// The URL in one canonical spelling: the identity of the forward's cursor.
    public let url: String

    public var description: String { url }

    public static let accepted = "rfc5424+tcp://HOST:PORT[?facility=N] or otlp+http://HOST:PORT/v1/logs"

    /// Facility names of RFC 5424 §6.2.1, by code.
    public static let facilityNames = [
        "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp",
        "ntp", "security", "console", "clock", "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7",
    ]

    public init(parsing text: String) throws(ForwardConfigurationError) {
        func refuse(_ reason: String) -> ForwardConfigurationError {
            ForwardConfigurationError("forward URL '\(text)': \(reason); accepted: \(Self.accepted)")
        }
        guard let schemeEnd = text.range(of: "://") else { throw refuse("no scheme") }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        var rest = Substring(text[schemeEnd.upperBound...])
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[slash...]
            rest = rest[..<slash]
        }
        let (host, port) = try Self.hostAndPort(rest, refuse: refuse)
        self.host = host
        self.port = port
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        switch scheme {
        case "rfc5424+tcp":
            guard path.isEmpty || path == "/" else { throw refuse("a path ('\(path)') has no meaning for rfc5424+tcp") }
            let facility = try Self.facility(inQuery: query, refuse: refuse)
            kind = .rfc5424TCP(facility: facility)
            url = "rfc5424+tcp://\(authority)" + (facility == 1 ? "" : "?facility=\(facility)")
        case "otlp+http":
            guard query.isEmpty else { throw refuse("otlp+http takes no query ('?\(query)')") }
            let endpointPath = path.isEmpty || path == "/" ? "/v1/logs" : String(path)
            guard endpointPath.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~/!$&'()*+,;=:@".contains($0)) }) else {
                throw refuse("the path '\(path)' holds a character a URL path cannot (spaces, '%', '#', outside ASCII)")
            }
            kind = .otlpHTTP(path: endpointPath)
            url = "otlp+http://\(authority)\(endpointPath)"
        default:
            throw refuse("unknown scheme '\(scheme)'")
        }
    }

    private static func hostAndPort(
        _ authority: Substring, refuse: (String) -> ForwardConfigurationError
    ) throws(ForwardConfigurationError) -> (String, UInt16) {
        var host: Substring
        var portText: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw refuse("an IPv6 address without its closing ']'") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.hasPrefix(":") else { throw refuse("no port after the IPv6 address (write [ADDRESS]:PORT)") }
            portText = after.dropFirst()
            guard host.contains(":"), host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw refuse("'\(host)' is not an IPv6 address")
            }
        } else {
            guard let colon = authority.lastIndex(of: ":") else { throw refuse("no port (write HOST:PORT)") }
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
            guard !host.isEmpty else { throw refuse("no host") }
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") }) else {
                throw refuse("'\(host)' is not a host name or an IPv4 address (letters, digits, '-', '.'; IPv6 in brackets)")
            }
        }
        guard let port = UInt16(portText), port > 0 else {
            throw refuse("port '\(portText)' is not a number from 1 to 65535")
        }
        return (String(host), port)
    }

    private static func facility(
        inQuery query: Substring, refuse: (String) -> ForwardConfigurationError
    ) throws(ForwardConfigurationError) -> Int {
        var facility = 1
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == "facility" else {
                throw refuse("unknown parameter '\(item)' (the only one is facility=N)")
            }
            if let number = Int(parts[1]), (0...23).contains(number) {
                facility = number
            } else if let index = facilityNames.firstIndex(of: parts[1].lowercased()) {
                facility = index
            } else {
                throw refuse("facility '\(parts[1])' is not 0…23 or a name (\(facilityNames.joined(separator: ", ")))")
            }
        }
        return facility
    }

    /// The file-name-safe form of `url`, for the cursor file.
    public var cursorName: String {
        String(url.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
    }
}

/// A forward URL or config file that cannot be used: the message says what and where.
public struct ForwardConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A chunk row the forwarder cannot turn into a record: the chunk, the record id and the value.
public struct ForwardStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
