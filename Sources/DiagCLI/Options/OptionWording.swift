/// How a command's shared options begin their help: `diag show` says "Show only records that
/// match…", `diag stats` "Count only…", `diag patterns` "Only…". A group is generic over its
/// wording so that the one declaration keeps each command's help as users know it.
protocol OptionWording {
    /// "Show": the command's verb, from which the two below are made unless a wording says otherwise.
    static var verb: String { get }
    /// "Show only": before "records that match this predicate", "this process"…
    static var only: String { get }
    /// "Show records": before "from this time on", "before this time"…
    static var records: String { get }
    /// "log show": the Apple command whose predicates the command's are.
    static var tool: String { get }
}

extension OptionWording {
    static var only: String { verb + " only" }
    static var records: String { verb + " records" }
    static var tool: String { "log show" }
}

/// `diag show`, `diag fleet show`.
enum ShowWording: OptionWording { static let verb = "Show" }

/// `diag stats`, `diag fleet stats`.
enum CountWording: OptionWording { static let verb = "Count" }

/// `diag export`.
enum ExportWording: OptionWording { static let verb = "Export" }

/// `diag signposts`: it shows intervals, and reads the records they are made of.
enum ReadWording: OptionWording {
    static let verb = "Read"
    static let only = "Show only"
}

/// `diag patterns`, `diag diff`: the options only narrow what is grouped.
enum PlainWording: OptionWording {
    static let verb = ""
    static let only = "Only"
    static let records = "Records"
}
