import DiagModel
import DiagOutput

/// The tally as `log stats`-like tables or JSON: `diag stats` and `diag fleet stats` print it.
public struct StatsReport {
    /// What the groups of a table are ordered by, largest first (`--sort`).
    public enum Order: String, CaseIterable, Sendable { case events, bytes }

    public struct Row {
        public var name: String?
        public var key: SQLValue
        public var events: Int64
        public var bytes: Int64
    }

    static let tables: [(grouping: RecordGrouping, title: String, key: String)] = [
        (.process, "Processes", "processes"), (.sender, "Senders", "senders"),
        (.subsystem, "Subsystems", "subsystems"), (.category, "Categories", "categories"),
    ]

    let tally: StatsTally
    let sort: Order
    let limit: Int?
    var zone: DisplayZone

    /// `limit` rows per table of names (nil for all); minutes are named in `zone`.
    public init(tally: StatsTally, sort: Order, limit: Int?, zone: DisplayZone) {
        self.tally = tally
        self.sort = sort
        self.limit = limit
        self.zone = zone
    }

    public var totals: (events: Int64, bytes: Int64) {
        tally.groups[.messageType, default: [:]].values.reduce((0, 0)) { ($0.0 + $1.events, $0.1 + $1.bytes) }
    }

    /// The top groups, largest first by the sort key, then by name.
    public func rows(_ grouping: RecordGrouping) -> [Row] {
        let all = tally.groups[grouping, default: [:]].map { key, value -> Row in
            let name: String? = if case .text(let text) = key { text } else { nil }
            return Row(name: name, key: key, events: value.events, bytes: value.bytes)
        }.sorted { left, right in
            let (a, b) = sort == .events ? (left.events, right.events) : (left.bytes, right.bytes)
            if a != b { return a > b }
            return (left.name ?? "") < (right.name ?? "")
        }
        return limit.map { Array(all.prefix($0)) } ?? all
    }

    /// Every level, in code order, zeros included.
    public var levels: [Row] {
        MessageType.allCases.map { level in
            let value = tally.figures(.messageType, .int(Int64(level.rawValue)))
            return Row(name: level.name, key: .int(Int64(level.rawValue)), events: value.events, bytes: value.bytes)
        }
    }

    /// Every minute that has records, oldest first, named in the display zone.
    public var minutes: [Row] {
        var zone = self.zone
        return tally.groups[.minute, default: [:]].compactMap { key, value -> Row? in
            guard case .int(let start) = key else { return nil }
            let text = Timestamp.format(nanoseconds: start, offsetSeconds: zone.offsetSeconds(at: start))
            return Row(name: String(text.prefix(16)), key: key, events: value.events, bytes: value.bytes)
        }.sorted { ($0.key.intValue ?? 0) < ($1.key.intValue ?? 0) }
    }

    /// `overview` keeps the totals and the levels only, as `log stats --overview` prints.
    public func human(method: String, reason: String?, predicate: String?, overview: Bool = false) -> String {
        var text = "Total: \(totals.events) events, \(totals.bytes) bytes of messages\n"
        text += "Counted by: " + (reason.map { "streaming records (\($0))" } ?? "aggregate SQL in the store") + "\n"
        if let predicate { text += "Predicate: \(predicate.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))\n" }
        func table(_ title: String, _ rows: [Row]) {
            text += "\n\(title):\n" + "      events        bytes  name\n"
            for row in rows {
                text += Self.padded(row.events, 12) + " " + Self.padded(row.bytes, 12) + "  " + (row.name ?? "(none)") + "\n"
            }
        }
        if overview {
            table("Levels", levels)
            return text
        }
        for entry in Self.tables { table("\(entry.title) (\(limit.map { "top \($0)" } ?? "all") by \(sort.rawValue))", rows(entry.grouping)) }
        table("Levels", levels)
        table("Per minute (\(zone.name))", minutes)
        return text
    }

    public func json(method: String, residual: Bool, reason: String?, predicate: String?) -> String {
        var writer = JSONWriter()
        writer.append(raw: "{\"method\":")
        writer.append(string: method)
        writer.append(raw: ",\"residual\":")
        writer.append(raw: residual ? "true" : "false")
        writer.append(raw: ",\"reason\":")
        if let reason { writer.append(string: reason) } else { writer.append(raw: "null") }
        writer.append(raw: ",\"predicate\":")
        if let predicate { writer.append(string: predicate) } else { writer.append(raw: "null") }
        writer.append(raw: ",\"totals\":{\"events\":")
        writer.append(totals.events)
        writer.append(raw: ",\"bytes\":")
        writer.append(totals.bytes)
        writer.append(raw: "}")
        func list(_ key: String, _ rows: [Row], nameKey: String) {
            writer.append(raw: ",")
            writer.append(string: key)
            writer.append(raw: ":[")
            for (index, row) in rows.enumerated() {
                writer.append(raw: index == 0 ? "{" : ",{")
                writer.append(string: nameKey)
                writer.append(raw: ":")
                if let name = row.name { writer.append(string: name) } else { writer.append(raw: "null") }
                if nameKey == "minute", case .int(let start) = row.key {
                    writer.append(raw: ",\"start\":")
                    writer.append(start)
                }
                writer.append(raw: ",\"events\":")
                writer.append(row.events)
                writer.append(raw: ",\"bytes\":")
                writer.append(row.bytes)
                writer.append(raw: "}")
            }
            writer.append(raw: "]")
        }
        for entry in Self.tables { list(entry.key, rows(entry.grouping), nameKey: "name") }
        list("levels", levels, nameKey: "name")
        list("minutes", minutes, nameKey: "minute")
        writer.append(raw: "}\n")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func padded(_ number: Int64, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: " ", count: max(0, width - digits.count)) + digits
    }
}

extension SQLValue {
    fileprivate var intValue: Int64? { if case .int(let value) = self { value } else { nil } }
}
