/// How a command's shared options begin their help: `diag show` says "Show only records that
/// match…", `diag stats` "Count only…", `diag patterns` "Only…". A group is generic over its
/// wording so that the one declaration keeps each command's help as users know it.
protocol OptionWording {
    /// "Show only": before "records that match this predicate", "this process"…
    static var only: String { get }
    /// "Show records": before "from this time on", "before this time"…
    static var records: String { get }
}

/// `diag show`, `diag fleet show`.
enum ShowWording: OptionWording {
    static let only = "Show only"
    static let records = "Show records"
}

/// `diag stats`, `diag fleet stats`.
enum CountWording: OptionWording {
    static let only = "Count only"
    static let records = "Count records"
}

/// `diag export`.
enum ExportWording: OptionWording {
    static let only = "Export only"
    static let records = "Export records"
}

/// `diag signposts`: it shows intervals, and reads the records they are made of.
enum ReadWording: OptionWording {
    static let only = "Show only"
    static let records = "Read records"
}

/// `diag patterns`, `diag diff`: the options only narrow what is grouped.
enum PlainWording: OptionWording {
    static let only = "Only"
    static let records = "Records"
}
