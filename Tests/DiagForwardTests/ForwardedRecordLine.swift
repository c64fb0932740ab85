/// A record line for diagd: the message carries `tag` and `index`, so that the receiver's copy
/// can be matched.
func recordLine(tag: String, index: Int, message: String = "", extra: String = "") -> String {
    let text = "\(tag) #\(index)\(message.isEmpty ? "" : " ")\(message)"
    var escaped = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return "{\"eventMessage\":\"\(escaped)\"\(extra)}"
}

