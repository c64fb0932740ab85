import DiagModel
import Foundation

/// The message of a state dump: its title, then the state as text where it can be read here.
enum StateDumpText {
    static func describe(_ dump: StateDump) -> String {
        var text = "State dump: \(dump.title)"
        switch dump.dataType {
        case 1:
            let object = try? PropertyListSerialization.propertyList(from: Data(dump.data), options: [], format: nil)
            if let string = object as? String {
                // Most dumps are an object's description: shown as the text it is, not as a
                // JSON string with its newlines escaped.
                text += "\n" + string
            } else if let object, let value = jsonValue(object, depth: 0) {
                var writer = JSONWriter(reservingCapacity: dump.data.count * 2)
                writer.append(value)
                text += "\n" + String(decoding: writer.bytes, as: UTF8.self)
            } else {
                text += "\n<serialized object, \(dump.data.count) bytes>"
            }
        case 2:
            text += "\n<protocol buffer, \(dump.data.count) bytes>"
        default:
            if dump.decoderLibrary == "location", dump.decoderType == "_CLClientManagerStateTrackerState", dump.data.count >= 8 {
                // CoreLocation's client manager state: two 32-bit integers (enabled status, and
                // restricted as a flag), which log decodes with location's own decoder.
                let status = Int32(bitPattern: UInt32(FirehoseValue.littleEndian(dump.data[dump.data.startIndex..<dump.data.startIndex + 4])))
                let restricted = FirehoseValue.littleEndian(dump.data[dump.data.startIndex + 4..<dump.data.startIndex + 8]) != 0
                text += "\n{\"locationRestricted\":\(restricted),\"locationServicesEnabledStatus\":\(status)}"
            } else if let string = String(validating: dump.data.prefix { $0 != 0 }, as: UTF8.self), !string.isEmpty,
               string.allSatisfy({ !$0.isASCII || $0.isWhitespace || ($0.asciiValue ?? 0) >= 0x20 }) {
                text += "\n" + string
            } else {
                let decoder = dump.decoderLibrary.isEmpty ? "" : " for \(dump.decoderLibrary) \(dump.decoderType)"
                text += "\n<custom data\(decoder), \(dump.data.count) bytes>"
            }
        }
        return text
    }

    /// A property list as JSON (our writer, keys sorted): data as base64, dates as seconds since
    /// 1970. nil for what JSON cannot say (an NSKeyedArchiver's own objects are dictionaries, so
    /// they come through), or nesting deeper than 64.
    static func jsonValue(_ object: Any, depth: Int) -> JSONValue? {
        guard depth < 64 else { return nil }
        switch object {
        case let text as String: return .string(text)
        case let flag as Bool where type(of: object) == Bool.self: return .bool(flag)
        case let number as Int: return .int(Int64(number))
        case let number as Int64: return .int(number)
        case let number as UInt64: return number <= UInt64(Int64.max) ? .int(Int64(number)) : .double(Double(number))
        case let number as Double: return .double(number)
        case let data as Data: return .string(data.base64EncodedString())
        case let date as Date: return .double(date.timeIntervalSince1970)
        case let array as [Any]:
            var elements: [JSONValue] = []
            for element in array {
                guard let value = jsonValue(element, depth: depth + 1) else { return nil }
                elements.append(value)
            }
            return .array(elements)
        case let dictionary as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (key, element) in dictionary {
                guard let value = jsonValue(element, depth: depth + 1) else { return nil }
                members[key] = value
            }
            return .object(members)
        default:
            return nil
        }
    }
}
