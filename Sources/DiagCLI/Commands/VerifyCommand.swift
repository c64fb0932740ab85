import DiagBundle
import DiagCommandLine
import DiagModel

/// `diag verify BUNDLE`: every file against the manifest's size and SHA-256, and the layout.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a bundle's files against its manifest's checksums, and its layout.",
        discussion: "Exit status 0 when the bundle is intact; 65 with one line per file that differs.")

    @Argument(help: "A bundle: .tar.gz, .tar.zst, .tar, or an unpacked bundle folder.", valueName: "bundle")
    var bundle: String

    static let problemsShown = 20

    func run() throws {
        let verification: BundleVerification
        do {
            verification = try BundleVerifier.verify(bundle)
        } catch let error as BundleError {
            if error.exitCode == 65 { throw InputError(error.message) }
            throw RuntimeError(error.message)
        }
        guard verification.isIntact else {
            // The first problems name what is wrong; a bundle listing a million files must not
            // print a million lines.
            for problem in verification.problems.prefix(Self.problemsShown) {
                StandardStream.error.write("\(TerminalText.escaped(bundle)): \(TerminalText.escaped(problem))\n")
            }
            if verification.problems.count > Self.problemsShown {
                StandardStream.error.write("\(TerminalText.escaped(bundle)): … and \(verification.problems.count - Self.problemsShown) more problems\n")
            }
            throw InputError("\(bundle): \(verification.problems.count) problem\(verification.problems.count == 1 ? "" : "s") found; the bundle is not as it was made")
        }
        StandardStream.output.write("\(bundle): OK, \(verification.checkedFiles) files match the manifest\n")
    }
}
