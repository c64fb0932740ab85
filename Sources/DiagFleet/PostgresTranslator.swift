import DiagModel
import Foundation

/// Values bound to `$1`, `$2`, … of one statement, sent as text and cast in the SQL.
public struct ParameterList: Sendable, Equatable {
    public private(set) var values: [String?] = []

    public init() {}

    /// Adds `value` and returns its placeholder, cast to `type` (`$3::bigint`).
    mutating func add(_ value: String, as type: String) -> String {
        values.append(value)
        return "$\(values.count)::\(type)"
    }
}

/// Turns the SQL part of a predicate's plan (SQLite SQL over the chunk columns, `?` placeholders,
/// docs/ARCHITECTURE.md's planner contract) into PostgreSQL SQL over the fleet's `records`, with
/// the same truth value on every row (NULL read as false):
///
/// - `?` becomes `$n` with a cast from the binding's type: integers `bigint`, doubles `numeric`
///   written exactly (so `bigint` against a double compares exactly, as SQLite and Swift do),
///   text `text` (the columns are `COLLATE "C"`: byte order, as SQLite's BINARY);
/// - SQLite's null-safe `IS` / `IS NOT` become `IS NOT DISTINCT FROM` / `IS DISTINCT FROM`;
/// - the integers 1 and 0 standing for truth values become `TRUE` and `FALSE`.
///
/// Anything else (SQLite's JSON functions for `metadata.<key>`, a text value holding U+0000,
/// a NaN) has no exact counterpart here: the translation gives nil, and the caller checks the
/// whole predicate in Swift instead.
enum PostgresTranslator {
    /// The columns a plan may name, all present in the fleet's `records`.
    static let columns: Set<String> = [
        "timestamp", "receiptTime", "messageType", "eventType", "process", "processID", "processImagePath", "userID",
        "sender", "senderImagePath", "subsystem", "category", "threadID", "activityIdentifier",
        "parentActivityIdentifier", "traceID", "eventMessage", "formatString", "signpostID", "signpostName", "signpostType",
        "metadata", "signpostScope",
    ]

    enum Token: Equatable {
        case word(String)
        case placeholder
        case number(String)
        case symbol(String)
        case string(String)
    }

    static func translate(_ sql: String, bindings: [SQLValue], into parameters: inout ParameterList) -> String? {
        guard let tokens = tokenize(sql) else { return nil }
        var output: [String] = []
        var list = parameters
        var nextBinding = 0
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            switch token {
            case .string:
                return nil
            case .placeholder:
                guard nextBinding < bindings.count, let placeholder = bind(bindings[nextBinding], into: &list) else { return nil }
                nextBinding += 1
                output.append(placeholder)
            case .number(let digits):
                // Only truth values and coalesce's default appear as numbers in a plan.
                guard digits == "1" || digits == "0" else { return nil }
                output.append(digits == "1" ? "TRUE" : "FALSE")
            case .symbol(let text):
                output.append(text == "!=" ? "<>" : text)
            case .word(let word):
                switch word.uppercased() {
                case "AND", "OR", "NOT", "IN", "NULL":
                    output.append(word.uppercased())
                case "COALESCE":
                    output.append("coalesce")
                case "LOWER":
                    // Over a COLLATE "C" column it folds ASCII only, as SQLite's does (TextSymbolSQL).
                    output.append("lower")
                case "JSON_TYPE":
                    // json_type(metadata, '$.key') = 'null' | 'text'  →  json_typeof(metadata::json -> 'key') = 'null' | 'string'
                    guard let key = metadataKey(tokens, at: index, bindings, nextBinding) else { return nil }
                    nextBinding += 1
                    output.append(#"json_typeof("metadata"::json -> "# + list.add(key, as: "text") + ")")
                    index += 6
                    if index + 1 < tokens.count, tokens[index] == .symbol("="), case .string(let type) = tokens[index + 1] {
                        guard let name = ["null": "null", "text": "string"][type] else { return nil }
                        output.append("= '\(name)'")
                        index += 2
                    } else if index < tokens.count, case .word(let next) = tokens[index], next.uppercased() == "IS" {
                        // IS NULL / IS NOT NULL follow.
                    } else {
                        return nil
                    }
                    continue
                case "JSON_EXTRACT":
                    // A string value only: numbers and booleans compare differently in PostgreSQL.
                    guard let key = metadataKey(tokens, at: index, bindings, nextBinding),
                          nextBinding + 1 < bindings.count, case .text = bindings[nextBinding + 1]
                    else { return nil }
                    nextBinding += 1
                    output.append(#"("metadata"::json ->> "# + list.add(key, as: "text") + #") COLLATE "C""#)
                    index += 6
                    continue
                case "IS":
                    // IS NULL / IS NOT NULL stay; IS x / IS NOT x are SQLite's null-safe comparisons.
                    var negated = false
                    var lookahead = index + 1
                    if lookahead < tokens.count, case .word(let next) = tokens[lookahead], next.uppercased() == "NOT" {
                        negated = true
                        lookahead += 1
                    }
                    if lookahead < tokens.count, case .word(let next) = tokens[lookahead], next.uppercased() == "NULL" {
                        output.append(negated ? "IS NOT NULL" : "IS NULL")
                        index = lookahead + 1
                        continue
                    }
                    output.append(negated ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM")
                    index = lookahead
                    continue
                default:
                    guard columns.contains(word) else { return nil }
                    output.append("\"\(word)\"")
                }
            }
            index += 1
        }
        guard nextBinding == bindings.count else { return nil }
        parameters = list
        return output.joined(separator: " ").replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
            .replacingOccurrences(of: " ,", with: ",")
            .replacingOccurrences(of: "coalesce (", with: "coalesce(")
    }

    /// `json_…(metadata, ?)` at `index` with a `$.key` binding: the key.
    static func metadataKey(_ tokens: [Token], at index: Int, _ bindings: [SQLValue], _ nextBinding: Int) -> String? {
        guard index + 5 < tokens.count, tokens[index + 1] == .symbol("("), tokens[index + 2] == .word("metadata"),
              tokens[index + 3] == .symbol(","), tokens[index + 4] == .placeholder, tokens[index + 5] == .symbol(")"),
              nextBinding < bindings.count, case .text(let path) = bindings[nextBinding], path.hasPrefix("$."),
              !path.utf8.contains(0)
        else { return nil }
        return String(path.dropFirst(2))
    }

    static func bind(_ value: SQLValue, into parameters: inout ParameterList) -> String? {
        switch value {
        case .null:
            return nil
        case .int(let number):
            return parameters.add(String(number), as: "bigint")
        case .double(let number):
            guard let text = exactDecimal(number) else { return nil }
            return parameters.add(text, as: "numeric")
        case .text(let text):
            guard !text.utf8.contains(0) else { return nil }
            return parameters.add(text, as: "text")
        }
    }

    /// A decimal that `numeric` reads as a value ordered against every integer exactly as the
    /// double is: integral doubles exactly, others by their shortest round-trip form (which lies
    /// strictly between the same two integers). NaN has no such form.
    static func exactDecimal(_ number: Double) -> String? {
        if number.isNaN { return nil }
        if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
        if number == number.rounded(.towardZero) {
            if let integer = Int64(exactly: number) { return String(integer) }
            return String(format: "%.0f", number)
        }
        return "\(number)"
    }

    static func tokenize(_ sql: String) -> [Token]? {
        var tokens: [Token] = []
        let scalars = Array(sql.unicodeScalars)
        var index = 0
        func isWordStart(_ c: Unicode.Scalar) -> Bool { c.isASCII && (CharacterSet.letters.contains(c) || c == "_") }
        func isWord(_ c: Unicode.Scalar) -> Bool { isWordStart(c) || ("0"..."9").contains(c) }
        while index < scalars.count {
            let c = scalars[index]
            if c == " " || c == "\n" || c == "\t" { index += 1; continue }
            if c == "?" { tokens.append(.placeholder); index += 1; continue }
            if c == "'" {
                var end = index + 1
                while end < scalars.count, scalars[end] != "'" { end += 1 }
                guard end < scalars.count else { return nil }
                tokens.append(.string(String(String.UnicodeScalarView(scalars[(index + 1)..<end]))))
                index = end + 1
                continue
            }
            if isWordStart(c) {
                var end = index
                while end < scalars.count, isWord(scalars[end]) { end += 1 }
                tokens.append(.word(String(String.UnicodeScalarView(scalars[index..<end]))))
                index = end
                continue
            }
            if ("0"..."9").contains(c) {
                var end = index
                while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
                tokens.append(.number(String(String.UnicodeScalarView(scalars[index..<end]))))
                index = end
                continue
            }
            let two = index + 1 < scalars.count ? String(String.UnicodeScalarView([c, scalars[index + 1]])) : ""
            if ["<=", ">=", "!=", "<>", "=="].contains(two) {
                tokens.append(.symbol(two == "==" ? "=" : two))
                index += 2
                continue
            }
            guard ["(", ")", ",", "=", "<", ">"].contains(String(c)) else { return nil }
            tokens.append(.symbol(String(c)))
            index += 1
        }
        return tokens
    }
}
