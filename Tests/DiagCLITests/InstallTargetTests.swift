import Foundation
import Testing
import TestSupport

/// `make install`'s steps after its release build (the `install-files` target it runs, given the
/// debug build's folder: a release build inside a test would take minutes), then `make uninstall`.
@Suite struct InstallTargetTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func make(_ arguments: [String]) throws -> ProcessOutput {
        try run("/usr/bin/make", ["--no-print-directory", "-C", repository.path] + arguments)
    }

    @Test func installPutsBinariesPagesAndCompletionsUnderDestdirAndPrefix() throws {
        let stage = try TemporaryDirectory("install-stage")
        let placement = ["DESTDIR=\(stage.path)", "PREFIX=/usr"]
        let install = try Self.make(["install-files", "BIN=\(BuiltProducts.directory.path)"] + placement)
        #expect(install.status == 0, "make install-files: \(install.stdout)\(install.stderr)")
        let usr = stage.url.appendingPathComponent("usr")
        let files = [
            "bin/diag", "bin/diagd", "share/man/man1/diag.1", "share/man/man1/diag-show.1", "share/man/man1/diag-fleet-load.1",
            "share/man/man8/diagd.8", "share/bash-completion/completions/diag", "share/bash-completion/completions/diagd",
            "share/zsh/site-functions/_diag", "share/zsh/site-functions/_diagd",
            "share/fish/vendor_completions.d/diag.fish", "share/fish/vendor_completions.d/diagd.fish",
        ]
        for file in files {
            #expect(FileManager.default.fileExists(atPath: usr.appendingPathComponent(file).path), "not installed: \(file)")
        }
        for program in ["diag", "diagd"] {
            #expect(FileManager.default.isExecutableFile(atPath: usr.appendingPathComponent("bin/\(program)").path))
        }
        let commands = try DumpedCommand.of("diag").all.count
        let pages = try FileManager.default.contentsOfDirectory(atPath: usr.appendingPathComponent("share/man/man1").path)
        #expect(pages.count == commands, "man1 holds \(pages.sorted())")
        // The installed binary runs and the installed completion completes.
        let version = try run(usr.appendingPathComponent("bin/diag").path, ["--version"])
        #expect(version.stdout.hasPrefix("diag "))
        let offered = try GeneratedScriptsRun.bash(
            script: usr.appendingPathComponent("share/bash-completion/completions/diag").path, program: "diag", words: ["diag", "show", "--no-p"])
        #expect(offered == ["--no-pager"])

        let uninstall = try Self.make(["uninstall"] + placement)
        #expect(uninstall.status == 0, "make uninstall: \(uninstall.stdout)\(uninstall.stderr)")
        let left = FileManager.default.enumerator(atPath: usr.path)?.compactMap { $0 as? String }
            .filter { !isDirectory(usr.appendingPathComponent($0)) } ?? []
        #expect(left.isEmpty, "left after uninstall: \(left)")
    }

    @Test func installFilesRefusesAFolderWithoutTheBinaries() throws {
        let stage = try TemporaryDirectory("install-empty")
        let output = try Self.make(["install-files", "BIN=\(stage.path)", "DESTDIR=\(stage.path)/root", "PREFIX=/usr"])
        #expect(output.status != 0)
        #expect(output.stdout.contains("install-files: BIN='\(stage.path)' holds no built diag and diagd"))
        #expect(!FileManager.default.fileExists(atPath: stage.path + "/root"))
    }

    private func isDirectory(_ url: URL) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }
}
