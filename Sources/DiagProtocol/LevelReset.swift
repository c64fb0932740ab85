import DiagModel

/// `{"config": {"reset": true, "subsystem"?: …, "category"?: …}}`, as `log config --reset`:
/// a category's setting, a subsystem's (with its categories'), or, with neither, every setting
/// back to the default (level:debug,persist:info).
public struct LevelReset: Sendable, Hashable {
    public var subsystem: String?
    public var category: String?

    public init(subsystem: String?, category: String?) {
        self.subsystem = subsystem
        self.category = category
    }

    public init(json: JSONValue) throws(ProtocolError) {
        // A reset takes no mode: a mode beside `reset` is refused as an unknown key.
        let object = try ConfigObject(
            json, accepted: ["subsystem", "category", "reset"],
            example: "{\"subsystem\": \"com.example.sync\", \"reset\": true}", form: "a 'config' reset (a reset takes no mode)")
        guard object.members["reset"] == .bool(true) else {
            throw ProtocolError("'config.reset' must be true, found \(object.members["reset"]?.kindName ?? "nothing")")
        }
        self.init(subsystem: object.subsystem, category: object.category)
    }

    public var json: JSONValue {
        var members = ConfigObject.scope(subsystem: subsystem, category: category)
        members["reset"] = .bool(true)
        return .object(members)
    }
}
