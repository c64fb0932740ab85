import DiagModel

/// A record field a predicate can name (PREDICATES.md §9.2), after aliases are resolved.
enum Field: Sendable, Hashable {
    case eventMessage, process, processImagePath, processID, userID
    case sender, senderImagePath, subsystem, category
    case messageType, eventType
    /// `type`: compares `messageType` or `eventType` depending on the value (§9.3).
    case typeByValue
    case threadID, activityIdentifier, parentActivityIdentifier, traceID
    case timestamp, formatString, signpostID, signpostName, signpostType, signpostScope
    /// A key `log` knows that our records do not hold: always nil.
    case absent(String, FieldType)
    /// `metadata.<key>`.
    case metadata(String)

    var type: FieldType {
        switch self {
        case .eventMessage, .process, .processImagePath, .sender, .senderImagePath, .subsystem, .category,
             .formatString, .signpostName: .string
        case .processID, .userID, .threadID, .activityIdentifier, .parentActivityIdentifier, .traceID, .signpostID: .integer
        case .messageType: .symbolic(.messageType)
        case .eventType: .symbolic(.eventType)
        case .signpostType: .symbolic(.signpostType)
        case .signpostScope: .symbolic(.signpostScope)
        case .typeByValue: .typeByValue
        case .timestamp: .date
        case .absent(_, let type): type
        case .metadata: .json
        }
    }

    /// The chunk column holding the field (docs/ARCHITECTURE.md), if any.
    var column: String? {
        switch self {
        case .eventMessage: "eventMessage"
        case .process: "process"
        case .processImagePath: "processImagePath"
        case .processID: "processID"
        case .userID: "userID"
        case .sender: "sender"
        case .senderImagePath: "senderImagePath"
        case .subsystem: "subsystem"
        case .category: "category"
        case .messageType: "messageType"
        case .eventType: "eventType"
        case .threadID: "threadID"
        case .activityIdentifier: "activityIdentifier"
        case .parentActivityIdentifier: "parentActivityIdentifier"
        case .traceID: "traceID"
        case .timestamp: "timestamp"
        case .formatString: "formatString"
        case .signpostID: "signpostID"
        case .signpostName: "signpostName"
        case .signpostType: "signpostType"
        case .signpostScope: "signpostScope"
        case .metadata: "metadata"
        case .typeByValue, .absent: nil
        }
    }

    /// Key names and aliases, as `log` spells them; case-sensitive.
    static let byKey: [String: Field] = {
        var table: [String: Field] = [
            "eventMessage": .eventMessage, "message": .eventMessage, "composedMessage": .eventMessage,
            "process": .process, "processImagePath": .processImagePath,
            "processID": .processID, "processIdentifier": .processID, "userID": .userID,
            "sender": .sender, "senderImagePath": .senderImagePath,
            "subsystem": .subsystem, "category": .category,
            "messageType": .messageType, "logType": .messageType,
            "eventType": .eventType, "type": .typeByValue,
            "threadID": .threadID, "threadIdentifier": .threadID,
            "activityIdentifier": .activityIdentifier, "parentActivityIdentifier": .parentActivityIdentifier,
            "traceID": .traceID, "traceIdentifier": .traceID,
            "timestamp": .timestamp, "date": .timestamp,
            "formatString": .formatString,
            "signpostID": .signpostID, "signpostIdentifier": .signpostID,
            "signpostName": .signpostName, "signpostType": .signpostType, "signpostScope": .signpostScope,
        ]
        for key in [
            "creatorActivityIdentifier", "transitionActivityIdentifier", "creatorProcessUniqueIdentifier",
            "senderImageOffset", "machContinuousTimestamp", "continuousNanosecondsSinceBoot", "timeToLive", "size",
        ] {
            table[key] = .absent(key, .integer)
        }
        for key in ["bootUUID", "processImageUUID", "senderImageUUID"] {
            table[key] = .absent(key, .string)
        }
        return table
    }()
}

enum FieldType: Sendable, Hashable {
    case string, integer, date, json
    case symbolic(SymbolKind)
    case typeByValue
}

/// The symbolic fields of §9.3 and their words.
enum SymbolKind: Sendable, Hashable {
    case messageType, eventType, signpostType, signpostScope

    /// Lower-cased word → code.
    var words: [String: Int64] {
        switch self {
        case .messageType:
            ["default": 0, "release": 0, "info": 1, "debug": 2, "error": 16, "fault": 17]
        case .eventType:
            Dictionary(uniqueKeysWithValues: EventType.allCases.map { ($0.name.lowercased(), Int64($0.rawValue)) })
        case .signpostType:
            // os_signpost_type_t: OS_SIGNPOST_EVENT 0, INTERVAL_BEGIN 1, INTERVAL_END 2.
            ["event": 0, "begin": 1, "end": 2]
        case .signpostScope:
            ["thread": 0, "process": 1, "system": 2]
        }
    }

    /// The canonical word for a code, as the normalised predicate prints it.
    func name(of code: Int64) -> String? {
        switch self {
        case .messageType: MessageType(rawValue: Int(code)).map { $0.name.lowercased() }
        case .eventType: EventType(rawValue: Int(code))?.name
        case .signpostType: ["event", "begin", "end"].indices.contains(Int(code)) ? ["event", "begin", "end"][Int(code)] : nil
        case .signpostScope: ["thread", "process", "system"].indices.contains(Int(code)) ? ["thread", "process", "system"][Int(code)] : nil
        }
    }

    /// The accepted words, for error messages.
    var acceptedWords: String {
        switch self {
        case .messageType: "default, info, debug, error, fault (or 0, 1, 2, 16, 17)"
        case .eventType: EventType.allCases.map(\.name).joined(separator: ", ")
        case .signpostType: "event, begin, end"
        case .signpostScope: "thread, process, system"
        }
    }

    func code(of word: String) -> Int64? { words[word.lowercased()] }

    /// A record's `signpostType` text as a code (`begin`, `intervalBegin`, …), any case.
    static func signpostTypeCode(_ text: String) -> Int64? {
        spellings(of: .signpostType).first { $0.spellings.contains(text.lowercased()) }?.code
    }

    /// A record's `signpostScope` text as a code (`thread`, `process`, `system`), any case.
    static func signpostScopeCode(_ text: String) -> Int64? {
        spellings(of: .signpostScope).first { $0.spellings.contains(text.lowercased()) }?.code
    }

    /// The lower-case texts a record's text column may hold for each code of the symbolic fields
    /// stored as text: what `signpostTypeCode` and `signpostScopeCode` accept, and what the SQL
    /// plan compares `lower(column)` with.
    static func spellings(of kind: SymbolKind) -> [(code: Int64, spellings: [String])] {
        switch kind {
        case .signpostType: [(0, ["event"]), (1, ["begin", "intervalbegin"]), (2, ["end", "intervalend"])]
        case .signpostScope: [(0, ["thread"]), (1, ["process"]), (2, ["system"])]
        case .messageType, .eventType: []
        }
    }
}
