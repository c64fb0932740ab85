extension LogRecord {
    /// Decodes a record from a JSON object with the field names of DESIGN.md (those of
    /// `log show --style ndjson`); what diagd reads from its socket and the importers from files.
    ///
    /// - `timestamp`: integer nanoseconds since the epoch, or a string such as
    ///   `2026-07-26T18:11:22.348728Z` or `2026-07-26 18:11:22.348728+1200`. `timestampNanoseconds`
    ///   (what `writeJSON` adds) wins over it. When both are missing, `defaultTimestamp` is used, or
    ///   the record is refused.
    /// - `messageType`: a name in any case or a code 0/1/2/16/17; missing means `Default`.
    /// - `eventType`: a name in any case or a code (1024…); missing means `logEvent`.
    /// - `eventMessage` is required; `message` and `composedMessage` are accepted in its place.
    /// - `metadata` must be an object. Unknown fields are ignored; `null` is the same as missing.
    ///
    /// Never traps: every refusal is a `LogRecordDecodingError` naming the field, the value and
    /// what is accepted.
    public init(json object: [String: JSONValue], defaultTimestamp: Int64? = nil) throws(LogRecordDecodingError) {
        var decoder = LogRecordDecoder()
        // Dictionary order changes from run to run: of several bad fields, the one reported is
        // the first in the record's field order, so the same input gets the same message.
        var failure: (rank: Int, error: LogRecordDecodingError)?
        for (key, value) in object {
            guard let field = LogRecordField.byName[key] else { continue }
            do throws(LogRecordDecodingError) {
                try decoder.take(field, value)
            } catch {
                let rank = LogRecordField.allCases.firstIndex(of: field) ?? 0
                if failure.map({ rank < $0.rank }) ?? true { failure = (rank, error) }
            }
        }
        if let failure { throw failure.error }
        self = try decoder.finish(defaultTimestamp: defaultTimestamp)
    }
}

/// Why a JSON object is not a log record: the field, the refused value (nil when it is missing)
/// and what the field accepts.
public struct LogRecordDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    public var field: String
    /// The refused value as JSON text, cut to 80 bytes; nil when the field is missing.
    public var refusedValue: String?
    public var accepted: String

    public init(field: String, refused value: JSONValue?, accepted: String) {
        self.field = field
        self.accepted = accepted
        if let value {
            var writer = JSONWriter(reservingCapacity: 96)
            writer.append(value)
            let text = String(decoding: writer.bytes.prefix(80), as: UTF8.self)
            refusedValue = writer.bytes.count > 80 ? text + "…" : text
        }
    }

    public var description: String {
        if let refusedValue {
            return "field \"\(field)\": refused value \(refusedValue); accepted: \(accepted)"
        }
        return "missing field \"\(field)\"; accepted: \(accepted)"
    }
}
