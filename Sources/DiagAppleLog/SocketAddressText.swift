import Foundation

/// `%{network:sockaddr}.*P`: a Darwin `struct sockaddr` (length byte, family byte, then the
/// family's fields) as an address and port. Darwin's numbers, not Linux's: AF_UNIX 1,
/// AF_INET 2, AF_INET6 30. nil for a family or size this does not know (then the bytes show
/// in hex, as for any `%P`).
enum SocketAddressText {
    static func describe(_ data: [UInt8]) -> String? {
        guard data.count >= 2 else { return nil }
        switch data[1] {
        case 1:
            let path = data.dropFirst(2).prefix { $0 != 0 }
            return String(validating: path, as: UTF8.self)
        case 2:
            guard data.count >= 8 else { return nil }
            let address = data[4..<8].map(String.init).joined(separator: ".")
            let port = Int(data[2]) << 8 | Int(data[3])
            return port == 0 ? address : "\(address):\(port)"
        case 30:
            guard data.count >= 24 else { return nil }
            var raw = in6_addr()
            withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: data[8..<24]) }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)) != nil else { return nil }
            var address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // The scope (an interface index on the device; its name is not in the log).
            if data.count >= 28 {
                let scope = FirehoseValue.littleEndian(data[24..<28])
                if scope != 0 { address += "%\(scope)" }
            }
            let port = Int(data[2]) << 8 | Int(data[3])
            return port == 0 ? address : "[\(address)]:\(port)"
        default:
            return nil
        }
    }
}
