import DiagCommandLine
import DiagOutput
import DiagQuery

/// `--timezone ZONE`, shared by every command that shows or reads times: a zone name, an
/// offset, `local`, or `bundle`; without the option, the local zone: `$TZ`, else the system's
/// (`/etc/localtime`), else UTC. `--timezone UTC` is one flag away.
enum TimezoneArgument {
    /// The help of `--timezone` of show, stats and export, whose SOURCEs can be bundles.
    static let help = help(verb: "Show and read times", bundle: true)

    /// The one wording of `--timezone`'s help: `verb` says what the command does with times
    /// ("Show and read times", "Read --start and --end"); the rest is `zone(_:sources:)`'s rule, which every
    /// command follows. `bundle` is offered only where SOURCEs are read.
    static func help(verb: String, bundle: Bool) -> String {
        let choices = "local (the default: $TZ, else /etc/localtime, else UTC), UTC, a name (Europe/Paris)"
        return bundle
            ? "\(verb) in this zone: \(choices), an offset (+0100), or bundle (the zone of the machine that collected the bundle SOURCE)."
            : "\(verb) in this zone: \(choices) or an offset (+0100)."
    }

    static func zone(_ text: String?) throws -> DisplayZone {
        try zone(text, sources: [])
    }

    /// `bundle` takes the zone the first bundle among `sources` recorded in its manifest.
    static func zone(_ text: String?, sources: [String]) throws -> DisplayZone {
        guard let text else { return DisplayZone.fromEnvironment() }
        switch text.lowercased() {
        case "local": return DisplayZone.fromEnvironment()
        case "bundle": return try bundleZone(sources)
        default: break
        }
        guard let parsed = DisplayZone(parsing: text) else {
            throw ValidationError("The value '\(text)' is invalid for '--timezone <zone>'; accepted: local, bundle, a zone name like Europe/Paris, UTC, or an offset like +0100 or -05:30")
        }
        return parsed
    }

    private static func bundleZone(_ sources: [String]) throws -> DisplayZone {
        let resolver = SourceResolver(bundleOpener: SourceArguments.bundleOpener)
        for source in sources {
            guard case .bundle(let path)? = try? resolver.resolve(source) else { continue }
            guard let zone = try BundleSourceOpener().zone(ofBundle: path) else {
                throw InputError("\(path): the bundle's manifest records no time zone (it was collected by an older diag); pass --timezone with a zone")
            }
            return zone
        }
        throw ValidationError("--timezone bundle needs a bundle SOURCE, whose manifest records the zone it was collected in")
    }
}
