import DiagModel

/// Turns one JSON object of ours or of Apple's `log show --style ndjson|json` into a record.
enum JSONRecordMapping {
    enum Outcome {
        case record(LogRecord)
        /// Apple's closing `{"count":…,"finished":1}`: not a record.
        case trailer
        case refused(column: Int?, line: Int, reason: String)
    }

    /// `line` is 1 for a single line; Apple's pretty-printed elements span lines, and errors say
    /// at which line of the element they are.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        do throws(LogRecordJSONError) {
            var record = try LogRecord(jsonBytes: bytes)
            fillNamesFromPaths(&record)
            return .record(record)
        } catch {
            switch error {
            case .invalidJSON(let json):
                return .refused(column: json.column, line: json.line, reason: json.reason)
            case .invalidRecord(let field):
                if field.refusedValue == nil, isTrailer(bytes) { return .trailer }
                return .refused(column: nil, line: 1, reason: field.description)
            }
        }
    }

    /// Apple's records name images by path only; `process` and `sender` are their last components.
    static func fillNamesFromPaths(_ record: inout LogRecord) {
        if record.process == nil, let path = record.processImagePath { record.process = lastComponent(path) }
        if record.sender == nil, let path = record.senderImagePath { record.sender = lastComponent(path) }
    }

    private static func lastComponent(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init)
        return name?.isEmpty == false ? name : nil
    }

    private static func isTrailer(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let object = try? JSONReader.parseObject(bytes) else { return false }
        return object["finished"] != nil && object.keys.allSatisfy { $0 == "finished" || $0 == "count" }
    }
}
