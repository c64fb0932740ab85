import DiagModel
import DiagPredicate

/// libFuzzer entry point: any bytes as a predicate. Parsing must not crash or hang; a parsed
/// predicate must evaluate, plan, and print a description that parses back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func predicateFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let predicate: Predicate
    do {
        predicate = try Predicate.parse(text, variables: FuzzRecords.variables)
    } catch {
        // The caret rendering runs on every error too.
        _ = error.description
        return 0
    }
    let results = FuzzRecords.all.map(predicate.evaluate)
    let plan = predicate.plan()
    _ = plan.explanation
    checkSQLTree(plan, text)
    if let residual = plan.residual { _ = FuzzRecords.all.map(residual.evaluate) }
    let normalised = predicate.description
    guard let again = try? Predicate.parse(normalised, variables: FuzzRecords.variables) else {
        fatalError("description does not parse: \(normalised) (from \(text.debugDescription))")
    }
    guard again.description == normalised else {
        fatalError("description is not stable: \(normalised) → \(again.description)")
    }
    guard FuzzRecords.all.map(again.evaluate) == results else {
        fatalError("description changes the result: \(normalised) (from \(text.debugDescription))")
    }
    return 0
}

/// The plan's SQL tree measures what its SQLite text is: the nesting and the bound values that
/// SQLShape keeps under SQLite's limits are counted on the tree, and must be the text's.
func checkSQLTree(_ plan: QueryPlan, _ text: String) {
    guard let expression = plan.sqlExpression, let sql = plan.sqlWhere else {
        guard plan.sqlWhere == nil, plan.bindings.isEmpty else { fatalError("SQL text without a tree (from \(text.debugDescription))") }
        return
    }
    var depth = 0
    var deepest = 0
    for byte in sql.utf8 {
        if byte == UInt8(ascii: "(") { depth += 1; deepest = max(deepest, depth) }
        if byte == UInt8(ascii: ")") { depth -= 1 }
    }
    guard depth == 0, deepest == expression.nesting, deepest <= 16 else {
        fatalError("nesting \(expression.nesting) for a text nesting \(deepest) (balance \(depth)): \(sql) (from \(text.debugDescription))")
    }
    guard expression.bindingCount == plan.bindings.count,
          sql.utf8.filter({ $0 == UInt8(ascii: "?") }).count == plan.bindings.count
    else { fatalError("\(expression.bindingCount) values counted, \(plan.bindings.count) bound: \(sql) (from \(text.debugDescription))") }
}

/// Short messages keep a pathological regex (`(a+)+$`) from running away on backtracking.
enum FuzzRecords {
    static let variables = ["V": "5", "S": "apsd", "D": "2022-06-04 09:40:00"]

    static let all: [LogRecord] = [
        LogRecord(timestamp: 1_654_335_600_000_000_000, messageType: .error, process: "apsd", processID: 5,
                  sender: "CoreData", subsystem: "com.apple.apsd", eventMessage: "Café push 42",
                  metadata: ["k": "v", "n": 3, "t": ["a"]]),
        LogRecord(timestamp: 0, messageType: .debug, eventType: .activityCreateEvent, process: "Cafe\u{301}",
                  eventMessage: "STRASSE\nß aaaa", signpostType: "begin"),
        LogRecord(timestamp: -1, eventMessage: ""),
    ]
}
