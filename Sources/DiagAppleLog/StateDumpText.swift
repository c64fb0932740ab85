import Foundation

/// The message of a state dump: its title, then the state as text where it can be read here.
enum StateDumpText {
    static func describe(_ dump: StateDump) -> String {
        var text = "State dump: \(dump.title)"
        switch dump.dataType {
        case 1:
            if let object = try? PropertyListSerialization.propertyList(from: Data(dump.data), options: [], format: nil),
               JSONSerialization.isValidJSONObject(object),
               let json = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
                text += "\n" + String(decoding: json, as: UTF8.self)
            } else {
                text += "\n<serialized object, \(dump.data.count) bytes>"
            }
        case 2:
            text += "\n<protocol buffer, \(dump.data.count) bytes>"
        default:
            if let string = String(validating: dump.data.prefix { $0 != 0 }, as: UTF8.self), !string.isEmpty,
               string.allSatisfy({ !$0.isASCII || $0.isWhitespace || ($0.asciiValue ?? 0) >= 0x20 }) {
                text += "\n" + string
            } else {
                let decoder = dump.decoderLibrary.isEmpty ? "" : " for \(dump.decoderLibrary) \(dump.decoderType)"
                text += "\n<custom data\(decoder), \(dump.data.count) bytes>"
            }
        }
        return text
    }
}
