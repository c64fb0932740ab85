import Foundation

/// The machine's own zone, as `log` and journalctl show times by default: the zone
/// `/etc/localtime` links to (`/usr/share/zoneinfo/Europe/Paris` → `Europe/Paris`), else the name
/// in `/etc/timezone` (Debian's), else UTC.
public enum SystemZone {
    public static let localtimePath = "/etc/localtime"

    /// The zone's name, or nil when neither file names one this system's database knows.
    public static func name(localtime: String = localtimePath) -> String? {
        named(localtime: localtime)?.name
    }

    /// The first name the files give that makes a zone, with that zone: each name is made into a
    /// zone once (`DisplayZone(parsing:)`, which knows the names of UTC without ICU), instead of
    /// being looked up to be checked and then again to be used.
    static func named(localtime: String) -> (name: String, zone: DisplayZone)? {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtime),
           let range = target.range(of: "zoneinfo/", options: .backwards) {
            let name = String(target[range.upperBound...])
            if let zone = DisplayZone(parsing: name) { return (name, zone) }
        }
        // A copied (not linked) localtime file carries no name; Debian writes it beside it.
        let beside = URL(fileURLWithPath: localtime).deletingLastPathComponent().appendingPathComponent("timezone").path
        if let text = try? String(contentsOfFile: beside, encoding: .utf8) {
            let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !name.isEmpty, name.count < 256, let zone = DisplayZone(parsing: name) { return (name, zone) }
        }
        return nil
    }
}

extension DisplayZone {
    /// The system's zone (SystemZone), UTC when it names none.
    public static func system(localtime: String = SystemZone.localtimePath) -> DisplayZone {
        SystemZone.named(localtime: localtime)?.zone ?? .utc
    }
}
