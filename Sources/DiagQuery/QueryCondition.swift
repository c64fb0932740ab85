import DiagModel

/// What a predicate contributes to a query, in the two forms a source can use: the planned part
/// (SQL over the chunk columns, message search words, a time range) with a residual check for the
/// store, and the whole check for sources read in Swift (plain files).
///
/// The planner contract (docs/ARCHITECTURE.md) makes `sql` + `residual` select exactly what `matches` does.
public struct QueryCondition {
    public var sqlWhere: String?
    public var bindings: [SQLValue]
    public var messageSearch: [String]
    /// A window implied by the predicate (`timestamp >= …`), intersected with the query's own.
    public var start: Int64?
    public var end: Int64?
    /// What SQL could not decide; nil when the SQL part is exact.
    public var residual: ((LogRecord) -> Bool)?
    /// `residual` decided from the message alone (its UTF-8 bytes as stored, read as
    /// `String(decoding:as:)` reads them), when it reads no other field: a store checks it on
    /// the message column before decoding a record. Nil when there is no residual or it reads
    /// other fields.
    public var messageResidual: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?
    /// The predicate, checked entirely in Swift.
    public var matches: (LogRecord) -> Bool

    public init(
        sqlWhere: String? = nil, bindings: [SQLValue] = [], messageSearch: [String] = [],
        start: Int64? = nil, end: Int64? = nil, residual: ((LogRecord) -> Bool)? = nil,
        messageResidual: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)? = nil, matches: @escaping (LogRecord) -> Bool
    ) {
        self.sqlWhere = sqlWhere
        self.bindings = bindings
        self.messageSearch = messageSearch
        self.start = start
        self.end = end
        self.residual = residual
        self.messageResidual = messageResidual
        self.matches = matches
    }
}
