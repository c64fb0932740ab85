import DiagModel

/// SQL for a column compared with a literal, with the nil and type rules of §4.
enum LiteralSQL {
    /// `column op value`. A nil value is `IS [NOT] NULL`; a value of another type (`accepts` is
    /// false) decides the comparison alone: `==` false, `!=` true, ordering false.
    static func scalar(column: String, op: ComparisonOperator, value: Value, accepts: (Value) -> Bool, index: String?) -> SQLFragment? {
        let indexes = index.map { [$0] } ?? []
        if value.isNull {
            switch op {
            case .equal: return SQLFragment(sql: "\(column) IS NULL", bindings: [], exact: true, indexes: indexes)
            case .notEqual: return SQLFragment(sql: "\(column) IS NOT NULL", bindings: [], exact: true)
            default: return .alwaysFalse
            }
        }
        guard accepts(value), let binding = binding(value) else {
            return .constant(op == .notEqual)
        }
        let sql: String
        switch op {
        case .equal: sql = "\(column) = ?"
        // `IS NOT` is true for NULL: a missing field is != every value (§4.3).
        case .notEqual: return SQLFragment(sql: "\(column) IS NOT ?", bindings: [binding], exact: true)
        case .lessThan: sql = "\(column) < ?"
        case .lessThanOrEqual: sql = "\(column) <= ?"
        case .greaterThan: sql = "\(column) > ?"
        case .greaterThanOrEqual: sql = "\(column) >= ?"
        default: return nil
        }
        return SQLFragment(sql: sql, bindings: [binding], exact: true, indexes: indexes)
    }

    static func binding(_ value: Value) -> SQLValue? {
        switch value {
        case .string(let text): .text(text)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .bool(let flag): .int(flag ? 1 : 0)
        case .date(let nanoseconds): .int(nanoseconds)
        default: nil
        }
    }

    /// OR of element comparisons; `column = ?` alternatives on one column become `column IN (…)`.
    static func anyOf(_ parts: [SQLFragment]) -> SQLFragment {
        let live = parts.filter { $0.sql != "0" }
        if live.isEmpty { return .alwaysFalse }
        if live.contains(where: { $0.sql == "1" }) { return .alwaysTrue }
        let exact = live.allSatisfy(\.exact)
        let indexes = Array(Set(live.flatMap(\.indexes))).sorted()
        let columns = Set(live.map { $0.sql.hasSuffix(" = ?") ? String($0.sql.dropLast(4)) : "" })
        if live.count > 1, columns.count == 1, let column = columns.first, !column.isEmpty,
           live.allSatisfy({ $0.bindings.count == 1 })
        {
            let placeholders = Array(repeating: "?", count: live.count).joined(separator: ", ")
            return SQLFragment(sql: "\(column) IN (\(placeholders))", bindings: live.flatMap(\.bindings), exact: exact, indexes: indexes)
        }
        if live.count == 1 { return live[0] }
        var joined = SQLShape.join(live, with: " OR ", exact: exact)
        joined.indexes = indexes
        return joined
    }

    static func allOf(_ parts: [SQLFragment]) -> SQLFragment {
        if parts.contains(where: { $0.sql == "0" }) { return .alwaysFalse }
        let live = parts.filter { $0.sql != "1" }
        if live.isEmpty { return .alwaysTrue }
        var joined = SQLShape.join(live, with: " AND ", exact: live.allSatisfy(\.exact))
        joined.indexes = Array(Set(live.flatMap(\.indexes))).sorted()
        return joined
    }

    /// Strings starting with `prefix` are those ≥ prefix and < prefix with its last scalar
    /// incremented (UTF-8 byte order is scalar order). Not exact: a match may not end inside a
    /// combining sequence (§5.1), which Swift checks again.
    static func prefixRange(column: String, prefix: String, index: String?) -> SQLFragment {
        guard !prefix.isEmpty else { return .alwaysFalse }
        var scalars = Array(prefix.unicodeScalars)
        var upper: String?
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let scalar = Unicode.Scalar(next) {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                view.append(scalar)
                upper = String(view)
                break
            }
        }
        let indexes = index.map { [$0] } ?? []
        guard let upper else {
            return SQLFragment(sql: "\(column) >= ?", bindings: [.text(prefix)], exact: false, indexes: indexes)
        }
        return SQLFragment(sql: "\(column) >= ? AND \(column) < ?", bindings: [.text(prefix), .text(upper)], exact: false, indexes: indexes)
    }
}

/// `metadata.<key>` through SQLite's JSON functions, typed like the Swift side: a JSON string
/// is a string, a JSON number or boolean a number, JSON null or an absent key nil.
enum MetadataSQL {
    static func compare(key: String, op: ComparisonOperator, value: Value, folded: Bool) -> SQLFragment? {
        let path = SQLValue.text("$." + key)
        if value.isNull {
            let isNull = SQLFragment(
                sql: "metadata IS NULL OR json_type(metadata, ?) IS NULL OR json_type(metadata, ?) = 'null'",
                bindings: [path, path], exact: true)
            switch op {
            case .equal: return isNull
            case .notEqual: return SQLFragment(sql: "NOT coalesce(\(isNull.sql), 0)", bindings: isNull.bindings, exact: true)
            default: return .alwaysFalse
            }
        }
        let types: String
        switch value {
        case .string:
            if folded { return nil }
            types = "= 'text'"
        case .int, .double, .bool:
            types = "IN ('integer', 'real', 'true', 'false')"
        default:
            return .constant(op == .notEqual)
        }
        guard let binding = LiteralSQL.binding(value) else { return nil }
        let sqlOperator: String
        switch op {
        case .equal, .notEqual: sqlOperator = "="
        case .lessThan: sqlOperator = "<"
        case .lessThanOrEqual: sqlOperator = "<="
        case .greaterThan: sqlOperator = ">"
        case .greaterThanOrEqual: sqlOperator = ">="
        default: return nil
        }
        let test = "json_type(metadata, ?) \(types) AND json_extract(metadata, ?) \(sqlOperator) ?"
        if op == .notEqual {
            return SQLFragment(sql: "NOT coalesce(\(test), 0)", bindings: [path, path, binding], exact: true)
        }
        return SQLFragment(sql: test, bindings: [path, path, binding], exact: true)
    }
}

/// `field op field` for two columns of the same kind, without options.
enum FieldPairTranslator {
    static func translate(_ left: Field, _ op: ComparisonOperator, _ right: Field, comparison: Comparison) -> SQLFragment? {
        guard let leftColumn = left.column, let rightColumn = right.column, left.type == right.type,
              !comparison.folding.isActive
        else { return nil }
        switch left.type {
        case .string, .integer, .date: break
        case .symbolic(let kind) where kind == .messageType || kind == .eventType: break
        default: return nil
        }
        let sql: String
        switch op {
        // `IS` is SQLite's null-safe equality: nil == nil (§4.2).
        case .equal: sql = "\(leftColumn) IS \(rightColumn)"
        case .notEqual: sql = "\(leftColumn) IS NOT \(rightColumn)"
        case .lessThan: sql = "\(leftColumn) < \(rightColumn)"
        case .lessThanOrEqual: sql = "\(leftColumn) <= \(rightColumn)"
        case .greaterThan: sql = "\(leftColumn) > \(rightColumn)"
        case .greaterThanOrEqual: sql = "\(leftColumn) >= \(rightColumn)"
        default: return nil
        }
        return SQLFragment(sql: sql, bindings: [], exact: true)
    }
}
