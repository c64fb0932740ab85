/// Reads back `diag export --format rfc5424`: octet-counted frames (RFC 6587 §3.4.1), each an
/// RFC 5424 message, parsed as a receiver would, strictly.
enum SyslogFrames {
    struct Message {
        var priority: Int
        var timestamp: String
        var hostname: String
        var appName: String?
        var procID: String?
        var msgID: String?
        var structuredData: String?
        var message: String?
    }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ bytes: [UInt8]) throws -> [Message] {
        var messages: [Message] = []
        var offset = 0
        while offset < bytes.count {
            guard let space = bytes[offset...].firstIndex(of: UInt8(ascii: " ")),
                  let length = Int(String(decoding: bytes[offset..<space], as: UTF8.self)), length > 0,
                  space + 1 + length <= bytes.count
            else { throw ParseError(description: "byte \(offset): not a MSG-LEN SP frame") }
            messages.append(try message(Array(bytes[(space + 1)..<(space + 1 + length)]), at: offset))
            offset = space + 1 + length
        }
        return messages
    }

    private static func message(_ bytes: [UInt8], at offset: Int) throws -> Message {
        var index = 0
        func field() throws -> String {
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: " ")) else {
                throw ParseError(description: "byte \(offset): a header field is missing")
            }
            defer { index = end + 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }
        let head = try field()
        guard head.hasPrefix("<"), head.hasSuffix(">1"), let priority = Int(head.dropFirst().dropLast(2)), (0...191).contains(priority) else {
            throw ParseError(description: "byte \(offset): '\(head)' is not <PRI>1")
        }
        let timestamp = try field(), hostname = try field(), appName = try field(), procID = try field(), msgID = try field()
        var structuredData: String?
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
        } else {
            let sdStart = index
            while index < bytes.count, bytes[index] == UInt8(ascii: "[") {
                var quoted = false
                index += 1
                while index < bytes.count {
                    let byte = bytes[index]
                    if quoted && byte == UInt8(ascii: "\\") { index += 2; continue }
                    if byte == UInt8(ascii: "\"") { quoted.toggle() }
                    index += 1
                    if !quoted && byte == UInt8(ascii: "]") { break }
                }
            }
            structuredData = String(decoding: bytes[sdStart..<index], as: UTF8.self)
        }
        var text: String?
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: " ") else { throw ParseError(description: "byte \(offset): no space before MSG") }
            var body = bytes[(index + 1)...]
            if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
            text = String(decoding: body, as: UTF8.self)
        }
        func nilValue(_ value: String) -> String? { value == "-" ? nil : value }
        return Message(priority: priority, timestamp: timestamp, hostname: hostname, appName: nilValue(appName),
                       procID: nilValue(procID), msgID: nilValue(msgID), structuredData: structuredData, message: text)
    }
}
