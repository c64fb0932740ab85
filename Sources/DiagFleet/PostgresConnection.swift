import CLibPQ
import Foundation

/// One connection to PostgreSQL through libpq: the only owner of its `PGconn`.
///
/// Every value reaches the server as a bound parameter (`$1`, `$2`, … through `PQexecParams`),
/// never pasted into SQL text; bulk rows go through `COPY … FROM STDIN`.
/// Not thread-safe: one connection is used by one thread at a time.
public final class PostgresConnection {
    private let handle: OpaquePointer
    /// The connection string with its password hidden, for error messages.
    public let displayName: String

    /// Connects to `url`: a `postgresql://` (or `postgres://`) URI, or libpq's `key=value` form.
    /// Waits at most 10 seconds for the server unless the URL says otherwise (`connect_timeout`).
    public init(url: String) throws(FleetError) {
        displayName = Self.redacted(url)
        try Self.loadLibrary()
        try Self.validate(url, displayName: displayName)
        // Later entries win: the URL (dbname, expanded) can override the defaults before it.
        let keywords = ["connect_timeout", "client_encoding", "application_name", "options", "dbname"]
        let values = ["10", "UTF8", "diag fleet", "-c client_min_messages=warning", url]
        let connection = CStrings.with(keywords) { keywordPointers in
            CStrings.with(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else { throw .failure("cannot connect to \(displayName): libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = Self.message(connection)
            PQfinish(connection)
            throw .failure("cannot connect to the database \(displayName): \(reason)")
        }
        handle = connection
        let encoding = try? value("SHOW server_encoding")
        guard encoding == "UTF8" else {
            throw .badInput("the database \(displayName) uses the encoding \(encoding ?? "(unknown)"); diag fleet needs a UTF8 database (createdb -E UTF8)")
        }
    }

    deinit { PQfinish(handle) }

    /// libpq is opened on first use (CLibPQ.h says why `diag` does not link it).
    private static func loadLibrary() throws(FleetError) {
        var reason = [CChar](repeating: 0, count: 512)
        guard clibpq_load(&reason, reason.count) == 0 else {
            let text = reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw .failure("diag fleet \(text)")
        }
    }

    /// A malformed URL is refused before any connection is tried, with libpq's reason.
    private static func validate(_ url: String, displayName: String) throws(FleetError) {
        let accepted = "accepted: postgresql://[user[:password]@]host[:port]/database[?param=value…], or key=value pairs (host=… dbname=…)"
        let isURI = url.hasPrefix("postgresql://") || url.hasPrefix("postgres://")
        guard isURI || url.contains("=") else {
            throw .badInput("--database: '\(displayName)' is not a PostgreSQL connection URL; \(accepted)")
        }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &error) else {
            let reason = error.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unreadable"
            if let error { PQfreemem(error) }
            throw .badInput("--database: '\(displayName)' is not a valid connection URL: \(reason); \(accepted)")
        }
        PQconninfoFree(options)
    }

    /// `url` with the password (in the URI's user part or `password=`) replaced by `***`.
    static func redacted(_ url: String) -> String {
        var text = url
        if let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@") {
            let user = text[scheme.upperBound..<at]
            if let colon = user.firstIndex(of: ":") { text.replaceSubrange(text.index(after: colon)..<at, with: "***") }
        }
        if let password = text.range(of: "password=") {
            let end = text[password.upperBound...].firstIndex { $0 == " " || $0 == "&" } ?? text.endIndex
            text.replaceSubrange(password.upperBound..<end, with: "***")
        }
        return text
    }

    static func message(_ connection: OpaquePointer?) -> String {
        guard let text = PQerrorMessage(connection) else { return "unknown error" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var errorMessage: String { Self.message(handle) }

    /// Runs `sql` with `parameters` bound to `$1`, `$2`, … (nil is SQL NULL); values travel as
    /// text and the SQL casts them (`$1::bigint`). Results come back as text.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(FleetError) -> PostgresResult {
        let result: OpaquePointer? = CStrings.withOptional(parameters) { pointers in
            PQexecParams(handle, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
        return try PostgresResult.checked(result, connection: self, sql: sql)
    }

    /// The first column of the first row, or nil when there is none or it is NULL.
    public func value(_ sql: String, _ parameters: [String?] = []) throws(FleetError) -> String? {
        let result = try execute(sql, parameters)
        return result.rowCount > 0 ? result.text(row: 0, column: 0) : nil
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// `COPY … FROM STDIN` (text format): `body` writes rows through the `CopyIn` it is given.
    public func copy(_ sql: String, _ body: (CopyIn) throws -> Void) throws {
        try PostgresResult.checked(PQexec(handle, sql), connection: self, sql: sql, expecting: PGRES_COPY_IN)
        let copyIn = CopyIn(connection: self)
        do {
            try body(copyIn)
            try copyIn.flush()
        } catch {
            _ = PQputCopyEnd(handle, "diag fleet: \(error)")
            _ = try? PostgresResult.checked(PQgetResult(handle), connection: self, sql: sql)
            while let rest = PQgetResult(handle) { PQclear(rest) }
            throw error
        }
        guard PQputCopyEnd(handle, nil) == 1 else { throw FleetError.failure("COPY could not end: \(errorMessage)") }
        try PostgresResult.checked(PQgetResult(handle), connection: self, sql: sql)
        while let rest = PQgetResult(handle) { PQclear(rest) }
    }

    /// Sends bytes of COPY data.
    func putCopyData(_ bytes: UnsafeBufferPointer<UInt8>) throws(FleetError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let sent = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { PQputCopyData(handle, $0, Int32(bytes.count)) }
        guard sent == 1 else { throw .failure("COPY to \(displayName) failed: \(errorMessage)") }
    }
}

@available(*, unavailable)
extension PostgresConnection: Sendable {}

/// Rows of a `COPY … FROM STDIN` in text format, buffered and sent in 1 MiB pieces.
public final class CopyIn {
    private let connection: PostgresConnection
    var buffer: [UInt8] = []

    init(connection: PostgresConnection) {
        self.connection = connection
        buffer.reserveCapacity(1 << 20 + 4096)
    }

    /// Appends bytes of the current row (already escaped); sends when the buffer is full.
    func sendIfFull() throws(FleetError) {
        if buffer.count >= 1 << 20 { try flush() }
    }

    func flush() throws(FleetError) {
        try buffer.withUnsafeBufferPointer { bytes throws(FleetError) in try connection.putCopyData(bytes) }
        buffer.removeAll(keepingCapacity: true)
    }
}

@available(*, unavailable)
extension CopyIn: Sendable {}

/// C string arrays for libpq calls, freed when the call returns.
enum CStrings {
    static func with<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        withOptional(strings.map { Optional($0) }, body)
    }

    static func withOptional<T>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0)! } }
        defer { for copy in copies { free(copy) } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        pointers.append(nil)
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
