import DiagCommandLine
import DiagOutput

/// `--timezone ZONE`, shared by every command that shows or reads times: a zone name or an
/// offset; without the option, `$TZ`, else UTC.
enum TimezoneArgument {
    static func zone(_ text: String?) throws -> DisplayZone {
        guard let text else { return DisplayZone.fromEnvironment() }
        guard let parsed = DisplayZone(parsing: text) else {
            throw ValidationError("The value '\(text)' is invalid for '--timezone <zone>'; accepted: a zone name like Europe/Paris, UTC, or an offset like +0100 or -05:30")
        }
        return parsed
    }
}
