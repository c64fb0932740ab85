import DiagClient
import DiagCommandLine
import DiagModel
import DiagOutput
import DiagPredicate
import Foundation

/// `diag stream`: the live tail of what diagd receives, like `log stream`.
struct StreamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Show log records live, as diagd receives them.",
        discussion: """
            Subscribes to diagd on its socket ($DIAG_SOCKET, else $XDG_RUNTIME_DIR/diag/diagd.sock, else \
            the default store's diagd.sock) and prints each record that passes the filters until \
            interrupted. Debug records, which diagd keeps only in memory by default, are shown with \
            --level debug. The predicate is evaluated by diagd. When this command reads too slowly, \
            diagd skips records and it says how many on stderr.
            """)

    @OptionGroup var query: PredicateOptions<StreamWording>

    @Option(help: "The lowest level shown: default (Default, Error, Fault), info, debug, or error or fault for only the problems.")
    var level: StreamLevel = .default

    @Option(name: "type", help: "Show only these kinds of event, repeatable (log stream --type): log, activity, signpost or trace.", valueName: "type")
    var types: [StreamEventKind]

    @OptionGroup var filter: FilterOptions<StreamWording>

    @OptionGroup var output: OutputOptions<LocalZone>

    @Option(help: "diagd's socket (default: $DIAG_SOCKET, else $XDG_RUNTIME_DIR/diag/diagd.sock, else <store>/diagd.sock).", valueName: "path")
    var socket: String?

    private var zone = DisplayZone.utc
    /// `--level` lowered by `--info` or `--debug`, as `show` takes them.
    private var lowest = StreamLevel.default

    mutating func validate() throws {
        zone = try output.zone()
        lowest = try level.lowered(info: filter.info, debug: filter.debug)
    }

    func run() throws {
        let predicate = try sentPredicate()
        let session: DaemonSession
        do {
            session = try DaemonSession(socketPath: socket)
        } catch {
            throw RuntimeError("\(error)")
        }
        let sink = OutputSink.standardOutput()
        let printer = output.printer(zone: zone, sink: sink)
        printer.begin()
        do {
            try session.stream(
                level: lowest.subscribedLevel, processes: filter.process,
                predicate: StreamEventKind.restrict(lowest.restrict(predicate), to: types),
                onRecord: { record in
                    printer.write(record)
                    sink.flush()
                },
                onDropped: { count in
                    sink.flush()
                    StandardStream.error.write("diag stream: \(count) record\(count == 1 ? "" : "s") skipped: this reader was too slow\n")
                })
        } catch {
            printer.finish()
            throw RuntimeError("\(error)")
        }
        printer.finish()
    }

    /// The predicate diagd evaluates: `--predicate` (or its file) with `--var`'s values and
    /// `--sender` ANDed in. diagd reads zone-less dates as UTC: they are sent as the instants
    /// read here, in --timezone (else $TZ, else /etc/localtime), as `show` reads them.
    private func sentPredicate() throws -> String? {
        let user = try query.text()
        guard let text = StatsSubjects.restrict(user, processes: [], senders: filter.sender) else { return nil }
        // diagd parses what it is sent with no nesting beyond check's: the same bound here.
        return try PredicateCondition.parse(text, user: user, variables: query.boundVariables, dateZone: DateLiteralZone(zone),
                                            enclosingLevels: 0).textWithAbsoluteDates
    }
}

/// `diag stream`'s wording of the shared options: it shows, as `log stream` does.
enum StreamWording: OptionWording {
    static let verb = "Show"
    static let tool = "log stream"
}

/// `--level` of `diag stream`.
enum StreamLevel: String, CaseIterable, ExpressibleByArgument {
    case `default`, info, debug, error, fault

    var messageType: MessageType {
        switch self {
        case .default: .default
        case .info: .info
        case .debug: .debug
        case .error: .error
        case .fault: .fault
        }
    }

    /// diagd's subscriptions take the levels it can keep in memory (default, info, debug);
    /// error and fault subscribe at default and narrow the predicate.
    var subscribedLevel: MessageType {
        self == .error || self == .fault ? .default : messageType
    }

    /// `--level` with `--info` or `--debug` (show's flags): the lower of the two. They only
    /// widen, so beside `--level error` or `fault`, which narrow to the problems, they are refused.
    func lowered(info: Bool, debug: Bool) throws -> StreamLevel {
        guard info || debug else { return self }
        let flag = debug ? "--debug" : "--info"
        if self == .error || self == .fault {
            throw ValidationError("\(flag) and --level \(rawValue) cannot be used together: --level \(rawValue) shows only the problems")
        }
        let wanted: StreamLevel = debug ? .debug : .info
        return wanted.messageType.severity < messageType.severity ? wanted : self
    }

    func restrict(_ predicate: String?) -> String? {
        guard self == .error || self == .fault else { return predicate }
        let condition = "messageType >= \(rawValue)"
        guard let predicate else { return condition }
        return "(\(predicate)\n) AND \(condition)"
    }
}

/// `--type` of `diag stream`, as `log stream --type`: which event types each kind covers.
enum StreamEventKind: String, CaseIterable, ExpressibleByArgument {
    case log, activity, signpost, trace

    var eventTypes: [String] {
        switch self {
        case .log: ["logEvent"]
        case .activity: ["activityCreateEvent", "activityTransitionEvent", "userActionEvent"]
        case .signpost: ["signpostEvent"]
        case .trace: ["traceEvent"]
        }
    }

    /// The predicate sent to diagd, narrowed to the kinds asked for.
    static func restrict(_ predicate: String?, to kinds: [StreamEventKind]) -> String? {
        guard !kinds.isEmpty else { return predicate }
        let names = kinds.flatMap(\.eventTypes)
        let condition = "eventType IN {\(names.joined(separator: ", "))}"
        guard let predicate else { return condition }
        return "(\(predicate)\n) AND \(condition)"
    }
}
