import Foundation

/// The `%{decoder}` value decoders of os_log that change how a value reads (`bool`, `BOOL`,
/// `time_t`, `errno`, `darwin.signal`, `darwin.mode`, `in_addr`, `sockaddr`, `uuid_t`, `bytes`,
/// `mask.hash`, …).
/// nil: the decoder is not one of these, and the value is formatted by its conversion.
enum ValueDecoders {
    static func decode(scalar bits: UInt64, byteCount: Int, decoder: String?) -> String? {
        guard let decoder else { return nil }
        let signed = byteCount >= 8 ? Int64(bitPattern: bits) : Int64(Int32(truncatingIfNeeded: bits))
        switch decoder {
        case "bool": return bits == 0 ? "false" : "true"
        case "BOOL": return bits == 0 ? "NO" : "YES"
        case "time_t": return CivilTime.format(seconds: signed, fraction: nil)
        case "errno", "darwin.errno": return "[\(signed): \(DarwinErrno.message(Int(signed)))]"
        case "darwin.signal": return DarwinSignal.describe(Int(signed))
        case "darwin.mode": return fileMode(UInt32(truncatingIfNeeded: bits))
        case "in_addr", "network:in_addr":
            let address = UInt32(truncatingIfNeeded: bits)
            return (0..<4).map { String(address >> (8 * UInt32($0)) & 0xff) }.joined(separator: ".")
        case "bytes": return scaled(Double(bits), base: 1000, units: ["bytes", "KB", "MB", "GB", "TB"])
        case "iec-bytes": return scaled(Double(bits), base: 1024, units: ["bytes", "KiB", "MiB", "GiB", "TiB"])
        case "bitrate": return scaled(Double(bits), base: 1000, units: ["bps", "kbps", "Mbps", "Gbps", "Tbps"])
        case "iec-bitrate": return scaled(Double(bits), base: 1024, units: ["bps", "Kibps", "Mibps", "Gibps", "Tibps"])
        case "mdns:yesno": return bits == 0 ? "no" : "yes"
        case "mdns:addrmv": return bits == 0 ? "rmv" : "add"
        case "mdns:acceptable": return bits == 0 ? "unacceptable" : "acceptable"
        default: return nil
        }
    }

    static func decode(string: String?, decoder: String?) -> String? {
        guard let decoder, let string else { return nil }
        switch decoder {
        case "location:escape_only": return string.replacingOccurrences(of: "/", with: "\\/")
        default: return nil
        }
    }

    static func decode(data: [UInt8], decoder: String?) -> String? {
        guard let decoder else { return nil }
        switch decoder {
        case "uuid_t":
            guard data.count == 16 else { return nil }
            return AppleUUID(data[...]).description
        case "in_addr", "network:in_addr":
            guard data.count == 4 else { return nil }
            return data.map(String.init).joined(separator: ".")
        case "in6_addr", "network:in6_addr":
            guard data.count == 16 else { return nil }
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: data) }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return nil }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        case "mask.hash":
            // The device stored a hash of the value, not the value: log shows it in base64.
            return "<mask.hash: '\(Data(data).base64EncodedString())'>"
        case "sockaddr", "network:sockaddr":
            return SocketAddressText.describe(data)
        case "timeval", "timespec":
            guard data.count == 16 else { return nil }
            let seconds = Int64(bitPattern: FirehoseValue.littleEndian(data[0..<8]))
            let fraction = Int64(bitPattern: FirehoseValue.littleEndian(data[8..<16]))
            return CivilTime.format(seconds: seconds, fraction: decoder == "timeval" ? String(format: "%06lld", fraction) : String(format: "%09lld", fraction))
        default: return nil
        }
    }

    private static func scaled(_ value: Double, base: Double, units: [String]) -> String {
        var value = value, unit = 0
        while value >= base, unit < units.count - 1 {
            value /= base
            unit += 1
        }
        return unit == 0 ? "\(Int(value)) \(units[0])" : String(format: "%.2f", value) + " " + units[unit]
    }

    private static func fileMode(_ mode: UInt32) -> String {
        let kinds: [UInt32: Character] = [0o010000: "p", 0o020000: "c", 0o040000: "d", 0o060000: "b", 0o100000: "-", 0o120000: "l", 0o140000: "s"]
        var text = String(kinds[mode & 0o170000] ?? "?")
        for shift in [6, 3, 0] {
            let bits = mode >> UInt32(shift) & 7
            text += (bits & 4 != 0 ? "r" : "-") + (bits & 2 != 0 ? "w" : "-") + (bits & 1 != 0 ? "x" : "-")
        }
        return text
    }
}

/// Dates of `%{time_t}d` and friends, in UTC (`log` shows the local zone of the Mac it runs on).
enum CivilTime {
    static func format(seconds: Int64, fraction: String?) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let second = seconds - days * 86_400
        // Howard Hinnant's days-to-civil.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        var text = String(format: "%04lld-%02lld-%02lld %02lld:%02lld:%02lld", year, month, day, second / 3600, second / 60 % 60, second % 60)
        if let fraction { text += "." + fraction }
        return text
    }
}
