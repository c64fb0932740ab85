import DiagCommandLine
import DiagOutput
import DiagQuery

/// `--timezone ZONE`, shared by every command that shows or reads times: a zone name, an
/// offset, `local`, or `bundle`; without the option, the local zone: `$TZ`, else the system's
/// (`/etc/localtime`), else UTC. `--timezone UTC` is one flag away.
enum TimezoneArgument {
    static let help = "Show and read times in this zone: local (the default: $TZ, else /etc/localtime), UTC, a name (Europe/Paris), an offset (+0100), or bundle (the zone of the machine that collected the bundle SOURCE)."

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
