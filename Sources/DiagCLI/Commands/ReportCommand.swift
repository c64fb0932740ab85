import DiagBundle
import DiagCommandLine
import DiagModel
import DiagPatterns
import Foundation

/// `diag report BUNDLE --baseline OTHER`: the bundle's report.html with what changed since
/// another repro at the top (the new, gone and changed patterns of `diag diff OTHER BUNDLE`).
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a bundle's report.html, with the diff against a baseline bundle at the top.",
        discussion: """
            Reads BUNDLE's report.html and puts at the top of it the patterns that are new in BUNDLE, \
            gone from it and changed in rate against --baseline (a bundle, store or log file), as diag diff \
            finds them over every record of both (all levels). Writes the page to --output, else to \
            standard output.
            """)

    @Option(help: "The repro to compare against: a bundle, a store or a log file.", valueName: "source")
    var baseline: String?
    @Option(help: "Write the page to this file instead of standard output.", valueName: "file")
    var output: String?
    @Argument(help: "A bundle: .tar.gz, .tar.zst, .tar, or an unpacked bundle folder.", valueName: "bundle")
    var bundle: String

    func run() throws {
        let opened: OpenedBundle
        do {
            opened = try BundleStoreOpener().open(bundle).bundle
        } catch let error as BundleError {
            throw error.exitCode == 65 ? InputError(error.message) as any Error : RuntimeError(error.message)
        }
        let reportURL = opened.root.appendingPathComponent(BundleLayout.report)
        guard let data = try? Data(contentsOf: reportURL), var page = String(data: data, encoding: .utf8) else {
            throw InputError("\(bundle): \(BundleLayout.report) is missing or not UTF-8 text")
        }
        if let baseline {
            var miner = try BaselinePatterns.mine(baseline)
            _ = try BaselinePatterns.filter().mine([bundle], into: &miner) { $0.target.count($1) }
            let section = ReportDiffSection.html(PatternDiff(miner.finish()), baseline: baseline)
            guard let withDiff = ReportDiffSection.insert(section, into: page) else {
                throw InputError("\(bundle): \(BundleLayout.report) has no <main> element to put the diff in")
            }
            page = withDiff
        }
        if let output {
            do {
                try Data(page.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw RuntimeError("cannot write \(output): \((error as NSError).localizedDescription)")
            }
        } else {
            StandardStream.output.write(page)
        }
    }
}
