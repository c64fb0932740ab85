import Foundation

/// One request or reply between the components: a line of JSON on a Unix socket.
///
/// `activityID` carries the activity across processes, so the receiver logs inside the same
/// activity as the sender (`Activity(adopting:)`).
public struct DemoMessage: Codable, Sendable, Hashable {
    public var command: String
    public var activityID: Int64?
    public var values: [String: String]
    /// Set on replies that refuse the request: what was wrong.
    public var error: String?

    public init(_ command: String, activityID: Int64? = nil, values: [String: String] = [:], error: String? = nil) {
        self.command = command
        self.activityID = activityID
        self.values = values
        self.error = error
    }

    public static func failure(_ reason: String) -> DemoMessage { DemoMessage("error", error: reason) }

    /// A value the request must carry; throws a `DemoError` naming it otherwise.
    public func require(_ key: String) throws -> String {
        guard let value = values[key], !value.isEmpty else {
            throw DemoError("request '\(command)' lacks the value '\(key)'")
        }
        return value
    }

    /// An integer value the request must carry.
    public func requireInt(_ key: String) throws -> Int {
        let text = try require(key)
        guard let number = Int(text) else { throw DemoError("request '\(command)': '\(key)' is '\(text)', not an integer") }
        return number
    }

    static let maximumLineBytes = 1 << 20

    func encodedLine() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding a struct of strings and integers cannot fail.
        var bytes = [UInt8]((try? encoder.encode(self)) ?? Data("{\"command\":\"error\",\"values\":{}}".utf8))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Decodes one line; the error says what was refused.
    static func decode(line: [UInt8]) throws -> DemoMessage {
        do {
            return try JSONDecoder().decode(DemoMessage.self, from: Data(line))
        } catch {
            let preview = String(decoding: line.prefix(80), as: UTF8.self)
            throw DemoError("not a request line (\(line.count) bytes, starting '\(preview)'): expected a JSON object with 'command' and 'values'")
        }
    }
}

/// A failure of the demo's components, said in words a user can act on.
public struct DemoError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }

    static func system(_ what: String, errno code: Int32 = errno) -> DemoError {
        DemoError("\(what): \(String(cString: strerror(code))) (errno \(code))")
    }
}
