import DiagCommandLine
import DiagImport
import DiagModel
import DiagQuery
import Foundation

/// `--last 30s|5m|2h|1d|boot`, read as `log show` reads it: relative to the end of the log.
/// With SOURCEs (bundles, copied stores, files) that is the newest record among them, so a
/// bundle read a day later still shows its last minutes; the live store (no SOURCE) counts back
/// from now. `boot` is this machine's boot, so it is for the live store only.
enum LastArgument: Equatable {
    case duration(Int64)
    case boot

    static let help = "Show only the last part of the log: 30s, 5m, 2h, 1d (a bare number is seconds) or boot (since this machine started). Counted back from the newest record of the SOURCEs, or from now for the default store."

    static func parse(_ text: String) throws -> LastArgument {
        if text.trimmingCharacters(in: .whitespaces).lowercased() == "boot" { return .boot }
        do {
            return .duration(try TimeArgument.duration(text))
        } catch {
            throw ValidationError("The value '\(text)' is invalid for '--last <duration|boot>'; accepted: a positive number of seconds, or followed by s, m, h or d, like 45, 30s, 5m, 2h, 1d; or boot")
        }
    }

    /// The start of the window `--last` asks for. `live` is true when the query reads the
    /// default store, which diagd writes to now.
    func start(sources: [QuerySource], live: Bool, options: ImportOptions = ImportOptions()) throws -> Int64? {
        switch self {
        case .boot:
            guard live else {
                throw ValidationError("--last boot reads the default store (this machine's boot says nothing of a SOURCE's records); use --last with a duration or --start for a SOURCE")
            }
            return Self.bootTime()
        case .duration(let length):
            if live { return Self.now() - length }
            let newest: Int64?
            do {
                newest = try LogQuery.newestTimestamp(of: sources, bundleOpener: SourceArguments.bundleOpener, options: options)
            } catch let error as QueryError {
                throw error.isBadInput ? InputError(error.message) as any Error : RuntimeError(error.message)
            }
            // Sources without records: any start selects nothing, and nothing is what they hold.
            return (newest ?? Self.now()) - length
        }
    }

    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * Timestamp.nanosecondsPerSecond + Int64(time.tv_nsec)
    }

    /// The wall-clock time this machine booted: now less the time since boot (CLOCK_BOOTTIME
    /// counts suspended time too, as the kernel's `btime` in /proc/stat does).
    static func bootTime() -> Int64 {
        var sinceBoot = timespec()
        clock_gettime(CLOCK_BOOTTIME, &sinceBoot)
        return now() - (Int64(sinceBoot.tv_sec) * Timestamp.nanosecondsPerSecond + Int64(sinceBoot.tv_nsec))
    }
}
