import CLibPQ

/// One result of a statement: the only owner of its `PGresult`. Values are read as text.
public final class PostgresResult {
    private let handle: OpaquePointer

    private init(handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    /// The result, or the server's error (with the SQLSTATE) as a `FleetError`.
    @discardableResult
    static func checked(
        _ result: OpaquePointer?, connection: PostgresConnection, sql: String, expecting expected: ExecStatusType? = nil
    ) throws(FleetError) -> PostgresResult {
        guard let result else {
            throw .failure("the database \(connection.displayName) did not answer: \(connection.errorMessage)")
        }
        let status = PQresultStatus(result)
        let accepted = expected.map { status == $0 } ?? (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        guard accepted else {
            var reason = PQresultErrorMessage(result).map { String(cString: $0) } ?? ""
            reason = reason.trimmingCharacters(in: [" ", "\n"])
            if reason.isEmpty { reason = connection.errorMessage }
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            PQclear(result)
            let statement = sql.split(separator: "\n").first.map(String.init) ?? sql
            throw FleetError(state == "42P01" ? .badInput : .failure,
                             "the database \(connection.displayName) refused `\(statement.prefix(120))`: \(reason)\(state.map { " (SQLSTATE \($0))" } ?? "")")
        }
        return PostgresResult(handle: result)
    }

    public var rowCount: Int { Int(PQntuples(handle)) }
    public var columnCount: Int { Int(PQnfields(handle)) }

    public func isNull(row: Int, column: Int) -> Bool { PQgetisnull(handle, Int32(row), Int32(column)) == 1 }

    /// The value as text, nil for NULL.
    public func text(row: Int, column: Int) -> String? {
        if isNull(row: row, column: column) { return nil }
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        guard let bytes = PQgetvalue(handle, Int32(row), Int32(column)) else { return nil }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// An integer column, parsed from its text without a String; nil for NULL.
    public func int64(row: Int, column: Int) -> Int64? {
        if isNull(row: row, column: column) { return nil }
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        guard let bytes = PQgetvalue(handle, Int32(row), Int32(column)), length > 0 else { return nil }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: length) { digits -> Int64? in
            var index = 0
            let negative = digits[0] == UInt8(ascii: "-")
            if negative { index = 1 }
            var value: Int64 = 0
            while index < length {
                let digit = Int64(digits[index] &- UInt8(ascii: "0"))
                guard digit >= 0, digit < 10 else { return nil }
                // Accumulate negatively so that Int64.min parses too.
                let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = shifted.subtractingReportingOverflow(digit)
                if overflow1 || overflow2 { return nil }
                value = next
                index += 1
            }
            if negative { return value }
            return value == Int64.min ? nil : -value
        }
    }
}

@available(*, unavailable)
extension PostgresResult: Sendable {}
