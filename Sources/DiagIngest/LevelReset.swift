import DiagModel

/// `{"config": {"reset": true, "subsystem"?: …, "category"?: …}}`, as `log config --reset`:
/// a category's setting, a subsystem's (with its categories'), or, with neither, every setting
/// back to the default (level:debug,persist:info).
struct LevelReset: Sendable, Hashable {
    var subsystem: String?
    var category: String?

    init(subsystem: String?, category: String?) {
        self.subsystem = subsystem
        self.category = category
    }

    init(json: JSONValue) throws(ProtocolError) {
        guard case .object(let members) = json else {
            throw ProtocolError("'config' takes an object like {\"subsystem\": \"com.example.sync\", \"reset\": true}, found \(json.kindName)")
        }
        for key in members.keys where !["subsystem", "category", "reset"].contains(key) {
            throw ProtocolError("unknown key '\(key)' in a 'config' reset; accepted: subsystem, category, reset (a reset takes no mode)")
        }
        guard members["reset"] == .bool(true) else {
            throw ProtocolError("'config.reset' must be true, found \(members["reset"]?.kindName ?? "nothing")")
        }
        func text(_ key: String) throws(ProtocolError) -> String? {
            guard let value = members[key], !value.isNull else { return nil }
            guard case .string(let string) = value else { throw ProtocolError("'config.\(key)' must be a string, found \(value.kindName)") }
            return string
        }
        subsystem = try text("subsystem")
        category = try text("category")
        if category != nil && subsystem == nil {
            throw ProtocolError("'config.category' needs 'config.subsystem'")
        }
    }

    var json: JSONValue {
        var members: [String: JSONValue] = ["reset": .bool(true)]
        if let subsystem { members["subsystem"] = .string(subsystem) }
        if let category { members["category"] = .string(category) }
        return .object(members)
    }
}

extension LevelConfiguration.Snapshot {
    /// Removes what `reset` names; a setting that was never made is no error (as `log config`).
    mutating func remove(_ reset: LevelReset) {
        switch (reset.subsystem, reset.category) {
        case (nil, _):
            self = Self(global: .systemDefault)
        case (let subsystem?, nil):
            subsystems[subsystem] = nil
            categories[subsystem] = nil
        case (let subsystem?, let category?):
            categories[subsystem]?[category] = nil
            if categories[subsystem]?.isEmpty == true { categories[subsystem] = nil }
        }
    }
}
