import Foundation
import Testing
import TestSupport

/// A command as the built program describes itself (`--experimental-dump-help`): the walk of
/// its `@Option`/`@Flag`/`@Argument` definitions that the parser makes.
struct DumpedCommand: Decodable {
    struct Argument: Decodable {
        var kind: String
        var longName: String?
        var shortName: String?
    }

    var path: [String]
    var manualSection: Int
    var arguments: [Argument]
    var subcommands: [DumpedCommand]

    var all: [DumpedCommand] { [self] + subcommands.flatMap(\.all) }
    var options: [Argument] { arguments.filter { $0.kind != "positional" } }
    var line: String { path.joined(separator: " ") }

    static func of(_ program: String) throws -> DumpedCommand {
        let output = try run(BuiltProducts.path(program), ["--experimental-dump-help"])
        #expect(output.status == 0, "\(program) --experimental-dump-help: \(output.stderr)")
        return try JSONDecoder().decode(DumpedCommand.self, from: Data(output.stdout.utf8))
    }
}

/// Every option of every command of `diag` and `diagd` is completed by bash and fish, has a spec
/// in zsh's function and an entry in the command's manual page, and every page passes groff
/// without warnings. The commands are walked from the programs' own definitions, so an option
/// someone adds is checked without a change here.
@Suite struct CompletionAndManualTests {
    static let programs = ["diag", "diagd"]

    static func generated(_ program: String, _ shell: String) throws -> String {
        let output = try run(BuiltProducts.path(program), ["--generate-completion-script", shell])
        #expect(output.status == 0, "\(program) --generate-completion-script \(shell): \(output.stderr)")
        return output.stdout
    }

    static func spellings(_ option: DumpedCommand.Argument) -> [String] {
        (option.shortName.map { ["-" + $0] } ?? []) + (option.longName.map { ["--" + $0] } ?? [])
    }

    @Test(arguments: programs) func bashOffersEveryOption(program: String) throws {
        let root = try DumpedCommand.of(program)
        let folder = try TemporaryDirectory("bash-options")
        let script = try folder.write("completion.bash", try Self.generated(program, "bash"))
        // One bash: for each command, what `<command> -<TAB>` offers, on one line after its name.
        var calls = "source \"$1\"\n"
        for command in root.all {
            let words = (command.path + ["-"]).map { "'\($0)'" }.joined(separator: " ")
            calls += "COMP_WORDS=(\(words)); COMP_CWORD=\(command.path.count); _\(program); printf '%s\\t%s\\n' '\(command.line)' \"${COMPREPLY[*]}\"\n"
        }
        let output = try run("/bin/bash", ["--norc", "-c", calls, "bash", script])
        #expect(output.status == 0, "bash: \(output.stderr)")
        var offered: [String: Set<String>] = [:]
        for line in output.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            offered[parts[0]] = Set((parts.count > 1 ? parts[1] : "").split(separator: " ").map(String.init))
        }
        for command in root.all {
            for option in command.options {
                for spelling in Self.spellings(option) {
                    #expect(offered[command.line, default: []].contains(spelling), "bash does not offer '\(command.line) \(spelling)'")
                }
            }
        }
        // A bare TAB offers the subcommands, or the options when there are none (diagd).
        let bare = try GeneratedScriptsRun.bash(script: script, program: program, words: [program, ""])
        let expected = root.subcommands.isEmpty ? root.options.flatMap(Self.spellings) : root.subcommands.map { $0.path.last! }
        #expect(bare == expected)
    }

    @Test(arguments: programs) func fishOffersEveryOption(program: String) throws {
        let root = try DumpedCommand.of(program)
        let folder = try TemporaryDirectory("fish-options")
        let script = try folder.write("completion.fish", try Self.generated(program, "fish"))
        var calls = "source $argv[1]\n"
        for command in root.all {
            calls += "for c in (complete -C '\(command.line) -'); echo '\(command.line)'\\t(string split -f1 \\t -- $c); end\n"
        }
        let output = try run("/usr/bin/fish", ["--no-config", "-c", calls, script])
        #expect(output.status == 0, "fish: \(output.stderr)")
        var offered: [String: Set<String>] = [:]
        for line in output.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            offered[parts[0], default: []].insert(parts.count > 1 ? parts[1] : "")
        }
        for command in root.all {
            for option in command.options {
                for spelling in Self.spellings(option) {
                    #expect(offered[command.line, default: []].contains(spelling), "fish does not offer '\(command.line) \(spelling)'")
                }
            }
        }
    }

    @Test(arguments: programs) func zshHasASpecForEveryOption(program: String) throws {
        let root = try DumpedCommand.of(program)
        let script = try Self.generated(program, "zsh")
        let syntax = try run("/usr/bin/zsh", ["-n", "-c", script])
        #expect(syntax.status == 0, "zsh -n: \(syntax.stderr)")
        for command in root.all {
            let name = "_" + command.path.map { $0.replacingOccurrences(of: "-", with: "_") }.joined(separator: "_")
            guard let start = script.range(of: "\n\(name)() {\n"), let end = script.range(of: "\n}\n", range: start.upperBound..<script.endIndex) else {
                Issue.record("zsh has no function \(name) for '\(command.line)'")
                continue
            }
            let body = script[start.upperBound..<end.lowerBound]
            for option in command.options {
                if let long = option.longName {
                    let forms = ["'--\(long)[", "'--\(long)=[", ",--\(long)}", ",--\(long)=}", "'*--\(long)=["]
                    #expect(forms.contains { body.contains($0) }, "zsh has no spec for '\(command.line) --\(long)'")
                }
                if let short = option.shortName {
                    #expect(body.contains("{-\(short),"), "zsh has no spec for '\(command.line) -\(short)'")
                }
            }
        }
    }

    @Test(arguments: programs) func everyCommandHasAManualPageNamingEachOption(program: String) throws {
        let root = try DumpedCommand.of(program)
        let folder = try TemporaryDirectory("manual")
        let generate = try run(BuiltProducts.path(program), ["--generate-manual", folder.path])
        #expect(generate.status == 0, "\(program) --generate-manual: \(generate.stderr)")
        for command in root.all {
            let name = "\(command.path.joined(separator: "-")).\(command.manualSection)"
            let path = folder.file(name).path
            guard let page = try? String(contentsOfFile: path, encoding: .utf8) else {
                Issue.record("no manual page \(name) for '\(command.line)'")
                continue
            }
            let lint = try run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", path])
            #expect(lint.status == 0 && lint.stderr.isEmpty, "groff warns on \(name): \(lint.stderr)")
            guard let options = page.range(of: "\n.SH OPTIONS\n"), let after = page.range(of: "\n.SH ", range: options.upperBound..<page.endIndex) else {
                Issue.record("\(name) has no OPTIONS section")
                continue
            }
            let section = page[options.upperBound..<after.lowerBound]
            for option in command.options {
                for spelling in Self.spellings(option) {
                    let roff = "\\fB" + spelling.replacingOccurrences(of: "-", with: "\\-") + "\\fR"
                    #expect(section.contains(roff), "\(name) does not describe \(spelling)")
                }
            }
            for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "SEE ALSO"] {
                #expect(page.contains("\n.SH \(heading)\n"), "\(name) has no \(heading)")
            }
        }
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(pages.count == root.all.count, "pages: \(pages.sorted())")
    }

    @Test func diagdPageIsInSectionEightAndManReadsIt() throws {
        let folder = try TemporaryDirectory("manual-diagd")
        _ = try run(BuiltProducts.path("diagd"), ["--generate-manual", folder.path])
        let shown = try run("/usr/bin/man", ["-l", folder.file("diagd.8").path], environment: ["MANWIDTH": "100", "MANPAGER": "cat", "PAGER": "cat"])
        #expect(shown.status == 0, "man -l: \(shown.stderr)")
        #expect(shown.stdout.contains("DIAGD(8)"))
        #expect(shown.stdout.contains("--max-connections"))
        #expect(shown.stdout.contains("diag(1)"))
    }

    @Test(arguments: [
        (["--generate-completion-script"], 64, "Error: --generate-completion-script takes one shell: bash, zsh, fish"),
        (["--generate-completion-script", "tcsh"], 64, "Error: The shell 'tcsh' is not one --generate-completion-script knows; accepted: bash, zsh, fish"),
        (["--generate-manual"], 64, "Error: --generate-manual takes one directory to write the pages into"),
        (["--experimental-dump-help", "x"], 64, "Error: --experimental-dump-help takes no value; it got 'x'"),
    ] as [([String], Int32, String)])
    func badGeneratorArgumentsAreUsageErrors(arguments: [String], status: Int32, message: String) throws {
        let output = try diag(arguments)
        #expect(output.status == status)
        #expect(output.stderr.hasPrefix(message), "stderr: \(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test func aManualDirectoryThatCannotBeMadeIsARuntimeFailure() throws {
        let folder = try TemporaryDirectory("manual-blocked")
        let file = try folder.write("plain-file", "not a folder\n")
        let output = try diag(["--generate-manual", file + "/man1"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("cannot create the manual directory '\(file)/man1'"), "stderr: \(output.stderr)")
    }

    @Test func generatorsAreLeftOutOfHelp() throws {
        let help = try diag(["--help"]).stdout
        #expect(!help.contains("generate-completion-script"))
        #expect(!help.contains("generate-manual"))
    }
}

enum GeneratedScriptsRun {
    /// COMPREPLY of the program's bash completion for these words (the last is being completed).
    static func bash(script: String, program: String, words: [String]) throws -> [String] {
        let call = "source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _\(program); printf '%s\\n' \"${COMPREPLY[@]}\""
        let output = try run("/bin/bash", ["--norc", "-c", call, "bash", script] + words)
        return output.stdout.split(separator: "\n").map(String.init)
    }
}
