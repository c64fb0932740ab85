/// `log stats --process NAME` and `--sender NAME`: the statistics of some processes or senders,
/// as a predicate conjunct, so stores still count them with aggregate SQL.
enum StatsSubjects {
    static func restrict(_ predicate: String?, processes: [String], senders: [String]) -> String? {
        var conditions: [String] = []
        if !processes.isEmpty {
            // A number is a process ID, anything else a name, as for show --process.
            let ids = processes.compactMap { Int64($0) }.filter { $0 >= 0 }
            let names = processes.filter { Int64($0).map { $0 < 0 } ?? true }
            var either: [String] = []
            if !names.isEmpty { either.append("process IN {\(names.map(quoted).joined(separator: ", "))}") }
            if !ids.isEmpty { either.append("processID IN {\(ids.map(String.init).joined(separator: ", "))}") }
            conditions.append(either.count == 1 ? either[0] : "(\(either.joined(separator: " OR ")))")
        }
        if !senders.isEmpty { conditions.append("sender IN {\(senders.map(quoted).joined(separator: ", "))}") }
        guard !conditions.isEmpty else { return predicate }
        let condition = conditions.joined(separator: " AND ")
        guard let predicate else { return condition }
        return "(\(predicate)\n) AND \(condition)"
    }

    /// A predicate string literal of `text`, with backslashes and quotes escaped.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
