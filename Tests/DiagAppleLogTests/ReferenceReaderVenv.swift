import Foundation
import TestSupport

/// UnifiedLogReader (PyPI `unifiedlog` 0.3, by Yogesh Khatri, MIT): a tracev3 reader nobody here
/// wrote, installed into a private venv under `.build/` the first time a test needs it. PyPI's
/// `dtformats` (the only release there is from 2018) has no unified-logging reader.
///
/// The package's setup.py imports pip's internal `PipSession`, which pip removed in 20.0, so the
/// venv first gets its dependencies with its own pip, then pip 19.3.1 to install the package.
/// Nothing here is skipped: a machine that cannot install it fails the test with pip's output.
enum ReferenceReaderVenv {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folder = repository.appendingPathComponent(".build/reference-readers/unifiedlog-0.3")
    static var python: String { folder.appendingPathComponent("bin/python").path }
    /// The package's command-line script, whose reader class the driver uses.
    static var readerScript: String { folder.appendingPathComponent("bin/UnifiedLogReader.py").path }
    /// Our driver: runs the package's reader and prints its records as JSON lines.
    static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Reference/unifiedlog_records.py").path

    struct SetupFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The venv's python, installing the reader first when it is not there yet.
    static func ensure() throws -> String {
        if ready() { return python }
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        let steps: [(String, [String])] = [
            ("/usr/bin/env", ["python3", "-m", "venv", folder.path]),
            (python, ["-m", "pip", "install", "-q", "lz4", "biplist==1.0.3"]),
            (python, ["-m", "pip", "install", "-q", "pip==19.3.1"]),
            (python, ["-m", "pip", "install", "-q", "--no-deps", "unifiedlog==0.3"]),
        ]
        for (executable, arguments) in steps {
            let output = try run(executable, arguments)
            guard output.status == 0 else {
                throw SetupFailure(description: "installing the reference reader failed: \(executable) \(arguments.joined(separator: " ")) exited \(output.status)\n\(output.stdout)\(output.stderr)")
            }
        }
        guard ready() else { throw SetupFailure(description: "the reference reader is installed in \(folder.path) but does not import") }
        return python
    }

    private static func ready() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: readerScript) else { return false }
        return (try? run(python, ["-c", "import UnifiedLog, lz4.block, biplist"]).status) == 0
    }
}
