import DiagModel

/// The object of a `{"config": {...}}` request, read the same way for a setting (`LevelSetting`)
/// and a reset (`LevelReset`): only the keys the request takes, strings where strings are
/// expected, and no category without its subsystem.
struct ConfigObject {
    let members: [String: JSONValue]
    let subsystem: String?
    let category: String?

    /// `accepted` are the keys this form takes; `example` shows it in the refusal of a non-object.
    init(_ json: JSONValue, accepted: [String], example: String, form: String) throws(ProtocolError) {
        guard case .object(let members) = json else {
            throw ProtocolError("'config' takes an object like \(example), found \(json.kindName)")
        }
        for key in members.keys.sorted() where !accepted.contains(key) {
            throw ProtocolError("unknown key '\(key)' in \(form); accepted: \(accepted.joined(separator: ", "))")
        }
        self.members = members
        subsystem = try Self.text("subsystem", members)
        category = try Self.text("category", members)
        if category != nil && subsystem == nil {
            throw ProtocolError("'config.category' needs 'config.subsystem'")
        }
    }

    /// A string member, nil when absent or null.
    func text(_ key: String) throws(ProtocolError) -> String? {
        try Self.text(key, members)
    }

    private static func text(_ key: String, _ members: [String: JSONValue]) throws(ProtocolError) -> String? {
        guard let value = members[key], !value.isNull else { return nil }
        guard case .string(let string) = value else { throw ProtocolError("'config.\(key)' must be a string, found \(value.kindName)") }
        return string
    }

    /// The scope members of a setting or reset, for its JSON.
    static func scope(subsystem: String?, category: String?) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        if let subsystem { members["subsystem"] = .string(subsystem) }
        if let category { members["category"] = .string(category) }
        return members
    }
}
