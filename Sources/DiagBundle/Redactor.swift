import Foundation

/// Replaces user names, host names, IPv4/IPv6 addresses, MAC addresses and e-mail addresses in
/// text with placeholders, the same value always by the same placeholder (as `sos clean` does),
/// so a redacted bundle still shows that two messages speak of the same host.
///
/// The map from values to placeholders is what a sender keeps; it never goes into a bundle.
/// Not thread-safe: one redactor serves one bundle.
public final class Redactor {
    public enum Category: String, CaseIterable, Sendable {
        case email, user, host, mac, ipv6, ipv4
    }

    /// Value (lowercased) → placeholder, per category.
    public private(set) var map: [Category: [String: String]] = [:]
    private let userNames: [String]
    private let hostNames: [String]
    private let userPattern: NSRegularExpression?
    private let hostPattern: NSRegularExpression?

    private static let email = pattern(#"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+"#)
    private static let mac = pattern(#"(?<![0-9A-Fa-f:\-])[0-9A-Fa-f]{2}([:\-])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}(?![0-9A-Fa-f:\-])"#)
    private static let ipv6Candidate = pattern(#"(?<![0-9A-Za-z_:.])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?::\d{1,3}(?:\.\d{1,3}){3})?(?:%[A-Za-z0-9]+)?(?![0-9A-Za-z_:])"#)
    private static let ipv4Candidate = pattern(#"(?<![0-9.])\d{1,3}(?:\.\d{1,3}){3}(?![0-9]|\.\d)"#)
    /// The authority of a URL (`https://api.example.com/…`) and `name.domain:port` tokens.
    private static let networkHost = pattern(#"(?<=://)[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*|(?<![A-Za-z0-9.\-])[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}(?=:\d{1,5}\b)"#)
    /// `/home/NAME` and `/Users/NAME`: a user's name in a path.
    private static let homeDirectory = pattern(#"(?<=/home/|/Users/)[A-Za-z0-9._\-]+"#)

    /// `userNames` and `hostNames` are redacted wherever they appear as whole words.
    public init(userNames: [String], hostNames: [String]) {
        self.userNames = Array(Set(userNames.filter { $0.count >= 3 })).sorted { $0.count > $1.count }
        self.hostNames = Array(Set(hostNames.filter { !$0.isEmpty }.map { $0.lowercased() })).sorted { $0.count > $1.count }
        userPattern = Redactor.wordAlternation(self.userNames)
        hostPattern = Redactor.wordAlternation(self.hostNames)
    }

    /// A redactor for this machine: its host names (from `gethostname` and `/etc/hosts`) and its
    /// people's user names (the current user and accounts with a UID of 1000 or more).
    public static func forLocalMachine(environment: [String: String] = ProcessInfo.processInfo.environment) -> Redactor {
        var users: [String] = [environment["USER"], environment["LOGNAME"]].compactMap { $0 }
        if let passwd = try? String(contentsOfFile: "/etc/passwd", encoding: .utf8) {
            for line in passwd.split(separator: "\n") {
                let fields = line.split(separator: ":", omittingEmptySubsequences: false)
                guard fields.count > 2, let uid = Int(fields[2]), uid >= 1000, uid < 60000 else { continue }
                users.append(String(fields[0]))
            }
        }
        let host = HostInfo.current.hostName
        var hosts = [host, String(host.split(separator: ".").first ?? "")]
        if let etcHosts = try? String(contentsOfFile: "/etc/hosts", encoding: .utf8) {
            for line in etcHosts.split(separator: "\n") {
                let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                for name in content.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst() {
                    let lowered = name.lowercased()
                    if lowered.contains("localhost") || lowered.hasPrefix("ip6-") { continue }
                    hosts.append(lowered)
                }
            }
        }
        return Redactor(userNames: users, hostNames: hosts)
    }

    /// The text with every recognised value replaced.
    public func redact(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        var result = text
        if result.contains("@") { result = replace(Redactor.email, in: result, category: .email) }
        if result.contains("://") || result.contains(":") {
            result = replace(Redactor.networkHost, in: result, category: .host)
        }
        if let hostPattern { result = replace(hostPattern, in: result, category: .host) }
        if result.contains("/home/") || result.contains("/Users/") {
            result = replace(Redactor.homeDirectory, in: result, category: .user)
        }
        if let userPattern { result = replace(userPattern, in: result, category: .user) }
        if result.contains(":") || result.contains("-") {
            result = replace(Redactor.mac, in: result, category: .mac)
        }
        if result.contains(":") {
            result = replace(Redactor.ipv6Candidate, in: result, category: .ipv6) { Redactor.isRoutableIPv6($0) }
        }
        if result.contains(".") {
            result = replace(Redactor.ipv4Candidate, in: result, category: .ipv4) { Redactor.isRoutableIPv4($0) }
        }
        return result
    }

    /// The placeholder a value gets: `<email-1>`, `<host-2>`, … numbered by first appearance.
    public func placeholder(for value: String, category: Category) -> String {
        let key = value.lowercased()
        if let known = map[category]?[key] { return known }
        let placeholder = "<\(category.rawValue)-\((map[category]?.count ?? 0) + 1)>"
        map[category, default: [:]][key] = placeholder
        return placeholder
    }

    /// The map as JSON, `{"host": {"db1.corp.example": "<host-1>"}, …}`, to keep beside the bundle.
    public func mapJSON() throws -> Data {
        let object = Dictionary(uniqueKeysWithValues: map.map { ($0.key.rawValue, $0.value) })
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    private func replace(
        _ expression: NSRegularExpression, in text: String, category: Category,
        accept: (String) -> Bool = { _ in true }
    ) -> String {
        let source = text as NSString
        let matches = expression.matches(in: text, range: NSRange(location: 0, length: source.length))
        guard !matches.isEmpty else { return text }
        var result = ""
        var cursor = 0
        for match in matches {
            let value = source.substring(with: match.range)
            guard !value.hasPrefix("<"), accept(value) else { continue }
            result += source.substring(with: NSRange(location: cursor, length: match.range.location - cursor))
            result += placeholder(for: value, category: category)
            cursor = match.range.location + match.range.length
        }
        result += source.substring(from: cursor)
        return result
    }

    /// Loopback and unspecified addresses identify nobody and stay.
    static func isRoutableIPv4(_ text: String) -> Bool {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return false }
        return !text.hasPrefix("127.") && text != "0.0.0.0"
    }

    static func isRoutableIPv6(_ text: String) -> Bool {
        let bare = String(text.split(separator: "%", maxSplits: 1).first ?? "")
        var address = in6_addr()
        guard bare.contains(where: \.isHexDigit), inet_pton(AF_INET6, bare, &address) == 1 else { return false }
        return bare != "::1" && bare != "::"
    }

    private static func pattern(_ text: String) -> NSRegularExpression {
        // The patterns are constants of this file; a typo is a programming error caught by the tests.
        try! NSRegularExpression(pattern: text)
    }

    private static func wordAlternation(_ words: [String]) -> NSRegularExpression? {
        guard !words.isEmpty else { return nil }
        let alternation = words.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
        return try? NSRegularExpression(pattern: "(?<![A-Za-z0-9_.\\-])(?:\(alternation))(?![A-Za-z0-9_\\-]|\\.[A-Za-z0-9])", options: [.caseInsensitive])
    }
}

@available(*, unavailable)
extension Redactor: Sendable {}
