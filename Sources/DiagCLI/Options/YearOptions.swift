import DiagCommandLine

/// `--year`: the year of syslog and logcat lines, which carry none. Checked here, so that every
/// command reading such files (show, export, import, signposts, patterns, diff) refuses the
/// same years with the same message.
struct YearOptions: ParsableArguments {
    @Option(help: "The year of syslog and logcat lines, which carry none (default: the year the file was last modified).")
    var year: Int?

    func validate() throws {
        if let year, !(1970...9999).contains(year) {
            throw ValidationError("The value '\(year)' is invalid for '--year <year>'; accepted: 1970 to 9999")
        }
    }
}
