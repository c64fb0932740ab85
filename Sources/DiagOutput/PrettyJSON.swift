/// Re-indents compact JSON the way `log show --style json` prints: two spaces per level and
/// `"key" : value`. The input is what `JSONWriter` produced, so it is valid JSON.
public enum PrettyJSON {
    public static func append(_ compact: [UInt8], to output: inout [UInt8]) {
        var depth = 0
        var inString = false
        var escaped = false
        var index = 0
        while index < compact.count {
            let byte = compact[index]
            index += 1
            if inString {
                output.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let closing = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if index < compact.count, compact[index] == closing {
                    output.append(closing)
                    index += 1
                } else {
                    depth += 1
                    newline(depth, &output)
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline(depth, &output)
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline(depth, &output)
            case UInt8(ascii: ":"):
                output.append(contentsOf: " : ".utf8)
            default:
                output.append(byte)
            }
        }
    }

    private static func newline(_ depth: Int, _ output: inout [UInt8]) {
        output.append(UInt8(ascii: "\n"))
        for _ in 0..<(depth * 2) { output.append(UInt8(ascii: " ")) }
    }
}
