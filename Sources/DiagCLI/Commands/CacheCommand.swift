import DiagBundle
import DiagCommandLine
import DiagModel
import Foundation

/// `diag cache`: the private folder where bundle archives are unpacked once
/// (`$XDG_CACHE_HOME/diag/bundles`, else `~/.cache/diag/bundles`).
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "List or clear the bundles unpacked for reading.",
        discussion: "diag show, stats and verify unpack a bundle archive once into $XDG_CACHE_HOME/diag/bundles (else ~/.cache/diag/bundles), keyed by its SHA-256.",
        subcommands: [CacheListCommand.self, CacheClearCommand.self])

    func run() throws {
        throw CleanExit.helpRequest()
    }
}

/// `diag cache list`: one line per unpacked bundle, then the folders of unpacks in progress.
struct CacheListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the unpacked bundles and their sizes.",
        discussion: "One line per bundle: the archive's SHA-256, its size unpacked, its top folder. Then any folder of an unpack in progress or abandoned (its process is gone), which the next run or diag cache clear removes.")

    func run() throws {
        let cache = BundleCache()
        var total: Int64 = 0
        for entry in cache.entries() {
            total += entry.byteCount
            StandardStream.output.write("\(entry.sha256)  \(Self.formatted(entry.byteCount))  \(TerminalText.escaped(entry.bundleName ?? "(empty)"))\n")
        }
        for folder in cache.temporaryFolders() {
            let owner = folder.ownerPID.map { "process \($0)" } ?? "an older diag"
            let state = folder.isAbandoned ? "abandoned by \(owner), removed at the next run" : "in use by \(owner)"
            StandardStream.output.write("\(TerminalText.escaped(folder.name))  \(folder.kind.rawValue) \(state)\n")
        }
        StandardStream.output.write("\(cache.directory.path): \(cache.entries().count) bundles, \(Self.formatted(total))\n")
    }

    static func formatted(_ bytes: Int64) -> String {
        ByteCountFormatter.string(fromByteCount: bytes, countStyle: .binary)
    }
}

/// `diag cache clear`: removes every unpacked bundle; the next read unpacks its archive again.
struct CacheClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every unpacked bundle from the cache.",
        discussion: "Removes the unpacked bundles, the cache's index and abandoned temporary folders; an unpack running in another process keeps its folder. Archives themselves are never touched.")

    func run() throws {
        let cache = BundleCache()
        let cleared: (bundles: Int, bytes: Int64)
        do {
            cleared = try cache.clear()
        } catch let error as BundleError {
            throw RuntimeError(error.message)
        }
        StandardStream.output.write("\(cache.directory.path): removed \(cleared.bundles) bundles, \(CacheListCommand.formatted(cleared.bytes)) freed\n")
    }
}
