import DiagModel
import DiagStore
import Foundation
import Synchronization

/// Writes `summaries/stats.json`, `summaries/errors.txt` and `report.html` from the snapshot's
/// chunks on a thread of its own, while the collecting thread archives the snapshot.
final class SummaryJob: @unchecked Sendable {
    // Safe: the inputs are immutable; `sources` (and their connections) are used only by the
    // job's thread once `start` hands them over; the result is written once by the job's thread
    // and read by `wait()` through `outcome`, a `Mutex`.
    private var sources: [SummarySource] = []
    private var storeInfo: StoreInfo?
    private let root: URL
    private let hostName: String
    private let manifest: BundleManifest
    private let notes: String?
    private var baseline: ReportBaseline?
    private let outcome = Mutex(Outcome())

    private struct Outcome {
        var result: Result<BundleStatistics, any Error>?
        var waiting = ParkedThreads()
    }

    init(root: URL, hostName: String, manifest: BundleManifest, notes: String?, baseline: ReportBaseline? = nil) {
        self.root = root
        self.hostName = hostName
        self.manifest = manifest
        self.notes = notes
        self.baseline = baseline
    }

    /// Starts reading `sources`, every chunk of the snapshot, which the caller no longer uses.
    /// `storeInfo`, if given, is the snapshot's `Info.json` to write once the records of its
    /// sealed chunks are counted.
    func start(_ sources: [SummarySource], storeInfo: StoreInfo?) {
        self.sources = sources
        self.storeInfo = storeInfo
        let thread = Thread { [self] in
            let result = Result { try summarise() }
            self.sources = []  // closes the live store's connections
            outcome.withLock { outcome in
                outcome.result = result
                outcome.waiting.wakeAll()
            }
        }
        thread.start()
    }

    /// Blocks until the summaries are written; returns the counts or the job's error.
    func wait() throws -> BundleStatistics {
        try outcome.wait(on: \.waiting) { $0.result }!.get()
    }

    private func summarise() throws -> BundleStatistics {
        let statistics = try BundleStatistics.count(sources)
        if let storeInfo { try writeStoreInfo(storeInfo, counts: statistics.recordsPerSource) }
        let summaries = root.appendingPathComponent(BundleLayout.summaries, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: summaries, withIntermediateDirectories: true)
            try StagedFile.write(try statistics.jsonData(), to: root.appendingPathComponent(BundleLayout.stats))
        } catch {
            throw BundleError.failure("cannot write \(BundleLayout.stats): \(error.localizedDescription)")
        }
        let errors = try ErrorDigest.write(sources, to: root.appendingPathComponent(BundleLayout.errors), hostName: hostName)
        let triage = try TriageData.collect(sources)
        let patterns = try ReportPatterns.mine(sources, baseline: &baseline)
        let report = ReportPage(manifest: manifest, statistics: statistics, errors: errors, notes: notes, triage: triage, patterns: patterns)
        var page = report.html()
        if let baseline, let withDiff = ReportDiffSection.insert(baseline.section(), into: page) { page = withDiff }
        do {
            try StagedFile.write(Data(page.utf8), to: root.appendingPathComponent(BundleLayout.report))
        } catch {
            throw BundleError.failure("cannot write \(BundleLayout.report): \(error.localizedDescription)")
        }
        return statistics
    }

    /// Writes the snapshot's `Info.json` with the record counts of the sealed chunks, which the
    /// summaries read through the live store's connections (the staged chunks' are measured).
    private func writeStoreInfo(_ info: StoreInfo, counts: [Int64]) throws {
        var chunks = info.chunks
        for (source, count) in zip(sources, counts) {
            guard case .database(let database) = source else { continue }
            let file = URL(fileURLWithPath: database.path).lastPathComponent
            if let index = chunks.firstIndex(where: { $0.file == file }) { chunks[index].recordCount = count }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let url = StoreLayout.infoURL(root.appendingPathComponent(BundleLayout.logStore))
        do {
            try StagedFile.write(try encoder.encode(StoreInfo(identifier: info.identifier, chunks: chunks)), to: url)
        } catch {
            throw BundleError.failure("cannot write the snapshot's \(StoreLayout.infoFile): \(error.localizedDescription)")
        }
    }
}
