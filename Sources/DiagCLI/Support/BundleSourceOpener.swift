import DiagBundle
import DiagCommandLine
import DiagQuery

/// The bundle reader `diag show` and friends use for a bundle SOURCE: DiagBundle's, with a
/// refused bundle (hostile, damaged, not a bundle) reported as bad input, exit status 65.
struct BundleSourceOpener: BundleOpener {
    let opener = BundleStoreOpener()

    func openStore(inBundle path: String) throws -> any OpenedBundleStore {
        do {
            return try opener.open(path)
        } catch let error as BundleError {
            if error.exitCode == 65 { throw InputError(error.message) }
            throw RuntimeError(error.message)
        }
    }
}
