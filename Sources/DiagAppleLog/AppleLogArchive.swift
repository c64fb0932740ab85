import DiagModel
import Foundation

/// A source of Apple's unified logs: one `.tracev3` file (with the `timesync/` and uuidtext
/// folders found beside it or above it) or a `.logarchive` folder (Info.plist, Persist/,
/// Special/, Signpost/, HighVolume/, timesync/, 00…FF/, dsc/).
public final class AppleLogArchive {
    /// The tracev3 files, in groups whose files follow each other in time (one folder each).
    public let groups: [[String]]
    public let strings: ImageStrings
    public let timesync: TimesyncDatabase
    let limits: AppleLogLimits

    /// What `path` holds, decided by content: a tracev3 file (its header chunk), or a folder
    /// with Apple's Info.plist or tracev3 files under Persist/. Callers ask DiagStore's
    /// `StoreLayout` first whether a folder is one of our stores, which this module does not know.
    public static func recognizes(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        if isDirectory.boolValue {
            let folder = URL(fileURLWithPath: path)
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Info.plist").path) { return true }
            let persist = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Persist").path)) ?? []
            return persist.contains { $0.hasSuffix(".tracev3") }
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let prefix = (try? handle.read(upToCount: 16)) ?? Data()
        return TraceV3File.looksLikeTraceV3([UInt8](prefix))
    }

    public init(path: String, limits: AppleLogLimits = AppleLogLimits()) throws(AppleLogError) {
        self.limits = limits
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AppleLogError("\(path): no such file or directory", unreadable: true)
        }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let searchRoots: [URL]
        if isDirectory.boolValue {
            var groups: [[String]] = []
            for folder in ["Persist", "Special", "Signpost", "HighVolume", ""] {
                let files = Self.traceFiles(in: folder.isEmpty ? url : url.appendingPathComponent(folder))
                if !files.isEmpty { groups.append(files) }
            }
            guard !groups.isEmpty else { throw AppleLogError("\(path): a log archive with no .tracev3 file in Persist/, Special/, Signpost/, HighVolume/ or itself") }
            self.groups = groups
            searchRoots = [url]
        } else {
            groups = [[url.path]]
            let parent = url.deletingLastPathComponent()
            searchRoots = [parent, parent.deletingLastPathComponent(), parent.deletingLastPathComponent().deletingLastPathComponent()]
        }
        var timesync = TimesyncDatabase()
        if let folder = searchRoots.lazy.map({ $0.appendingPathComponent("timesync") }).first(where: { Self.isDirectory($0) }) {
            for name in Self.files(in: folder, suffix: ".timesync") {
                let file = folder.appendingPathComponent(name).path
                try timesync.add(bytes: try AppleFiles.read(file, limits: limits, what: "timesync file"), name: file)
            }
        }
        self.timesync = timesync
        let uuidRoot = searchRoots.lazy.flatMap { [$0.appendingPathComponent("uuidtext"), $0] }.first { folder in
            Self.isDirectory(folder.appendingPathComponent("dsc"))
                || ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
        }
        strings = ImageStrings(root: uuidRoot, limits: limits)
    }

    /// The records of one tracev3 file, sorted by time.
    public func records(ofFile path: String) throws(AppleLogError) -> [LogRecord] {
        let file = try TraceV3File(bytes: try AppleFiles.read(path, limits: limits, what: "tracev3 file"), name: path, limits: limits)
        return AppleRecordBuilder(file: file, strings: strings, timesync: timesync).records()
    }

    /// The records of tracev3 bytes alone (no timesync, uuidtext or dsc files): what the fuzzer
    /// and a file without its archive give.
    public static func records(ofTraceV3 bytes: [UInt8], name: String, limits: AppleLogLimits = AppleLogLimits()) throws(AppleLogError) -> [LogRecord] {
        let file = try TraceV3File(bytes: bytes, name: name, limits: limits)
        return AppleRecordBuilder(file: file, strings: ImageStrings(root: nil, limits: limits), timesync: TimesyncDatabase()).records()
    }

    static func traceFiles(in folder: URL) -> [String] {
        files(in: folder, suffix: ".tracev3").map { folder.appendingPathComponent($0).path }
    }

    static func files(in folder: URL, suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
    }

    static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

@available(*, unavailable)
extension AppleLogArchive: Sendable {}

/// The records of a group of tracev3 files in time order, two files in memory at a time:
/// logd starts a file when the previous one is full, so a file's records can only overlap the
/// next file's first ones (events buffered in memory when the file was rotated).
public struct AppleLogGroupReader {
    let archive: AppleLogArchive
    var files: IndexingIterator<[String]>
    /// The files read and not yet drained: each one's records and the next to give.
    var window: [(records: [LogRecord], index: Int)] = []

    public init(archive: AppleLogArchive, files: [String]) {
        self.archive = archive
        self.files = files.makeIterator()
    }

    public mutating func next() throws(AppleLogError) -> LogRecord? {
        window.removeAll { $0.index >= $0.records.count }
        while window.count < 2, let path = files.next() {
            let records = try archive.records(ofFile: path)
            if !records.isEmpty { window.append((records, 0)) }
        }
        guard !window.isEmpty else { return nil }
        var pick = 0
        if window.count == 2, window[1].records[window[1].index].timestamp < window[0].records[window[0].index].timestamp { pick = 1 }
        defer { window[pick].index += 1 }
        return window[pick].records[window[pick].index]
    }
}
