/// `--activity ID`: the records of one activity, as `activityIdentifier == ID` in the predicate,
/// so that the planner serves it from the `records_activity` index.
enum ActivityArgument {
    /// A decimal identifier or `0x` hex, as the default style's Activity column prints it.
    static func identifier(_ text: String) -> Int64? {
        let lowered = text.lowercased()
        if lowered.hasPrefix("0x") {
            guard let value = UInt64(lowered.dropFirst(2), radix: 16) else { return nil }
            return Int64(bitPattern: value)
        }
        return Int64(lowered)
    }

    /// The user's predicate, if any, narrowed to the activity.
    static func restrict(_ predicate: String?, to identifier: Int64?) -> String? {
        guard let identifier else { return predicate }
        let condition = "activityIdentifier == \(identifier)"
        guard let predicate else { return condition }
        return "(\(predicate)\n) AND \(condition)"
    }
}
