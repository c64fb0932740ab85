import DiagModel

/// The lines of `diag predicate explain`: what SQL decides, which index serves it, what the
/// store may skip, and what Swift checks on each record.
enum PlanExplanation {
    static func lines(for plan: QueryPlan, indexes: [String]) -> [String] {
        var lines: [String] = []
        if let sql = plan.sqlWhere {
            let kind = plan.residual == nil ? "decides exactly" : "narrows the records"
            lines.append("SQL (\(kind)): WHERE \(sql)")
            if !plan.bindings.isEmpty {
                lines.append("  bound values: " + plan.bindings.map(describe).joined(separator: ", "))
            }
            var seen = Set<String>()
            let unique = indexes.filter { seen.insert($0).inserted }
            if unique.isEmpty, !plan.messageSearch.isEmpty {
                lines.append("  index: none for this condition; the message search below skips rows where a chunk has its index")
            } else if unique.isEmpty {
                lines.append("  index: none applies; SQLite scans each chunk")
            } else {
                lines.append("  index: " + unique.joined(separator: ", "))
            }
        } else {
            lines.append("SQL: no condition; every record of the chunks in the time window is read")
        }
        if plan.timeRange.isEmpty {
            lines.append("time window: empty; no record can match")
        } else if !plan.timeRange.isUnbounded {
            let start = plan.timeRange.start.map { Timestamp.format(nanoseconds: $0) } ?? "the beginning"
            let end = plan.timeRange.end.map { Timestamp.format(nanoseconds: $0) } ?? "the end"
            lines.append("time window: from \(start) (inclusive) to \(end) (exclusive); chunks outside it are skipped")
        }
        if !plan.messageSearch.isEmpty {
            lines.append("message search: " + plan.messageSearch.map { Value.quoted($0) }.joined(separator: ", ")
                + " (trigram index of folded messages, where a chunk has one; a prefilter only)")
        }
        if let residual = plan.residual {
            lines.append("per record (Swift): \(residual.description)")
        } else {
            lines.append("per record (Swift): nothing; SQL decides exactly")
        }
        return lines
    }

    private static func describe(_ value: SQLValue) -> String {
        switch value {
        case .null: "NULL"
        case .int(let number): String(number)
        case .double(let number): "\(number)"
        case .text(let text): Value.quoted(text)
        }
    }
}
