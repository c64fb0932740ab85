import Foundation
import Testing
import TestSupport
@testable import DiagCommandLine

/// A command whose help and values hold what shells and roff treat specially.
struct QuotingTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quoting", abstract: "Quotes: 'single', \"double\", [brackets], back\\slash, $HOME, ±1.",
        discussion: ".starts with a dot\n'starts with a quote\n\nA second paragraph.", version: "quoting 1")

    @Option(help: "It's a [bracketed] choice: back\\slash; $(not run).") var mode: QuotingMode = .plain
    @Option(help: "A folder.", valueName: "dir") var into: String?

    func run() throws {}
}

enum QuotingMode: String, CaseIterable, ExpressibleByArgument {
    case plain, spaced = "two words", quoted = "it's"
}

/// The completion scripts and manual pages of the sample commands, loaded in the real shells and
/// checked by groff.
@Suite struct GeneratedScriptTests {
    /// COMPREPLY after calling the bash completion function with these words (the last one is
    /// the word being completed).
    static func bashCompletions(_ script: String, function: String, _ words: [String], in directory: String? = nil) throws -> [String] {
        let folder = try TemporaryDirectory("bash-completion")
        let path = try folder.write("script.bash", script)
        let command = """
            source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            \(function); printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try run("/bin/bash", ["--norc", "-c", command, "bash", path] + words, currentDirectory: directory)
        #expect(output.status == 0, "bash: \(output.stderr)")
        return output.stdout.split(separator: "\n").map(String.init)
    }

    static func fishCompletions(_ script: String, _ line: String) throws -> [String] {
        let folder = try TemporaryDirectory("fish-completion")
        let path = try folder.write("script.fish", script)
        let output = try run("/usr/bin/fish", ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", path, line])
        #expect(output.status == 0, "fish: \(output.stderr)")
        return output.stdout.split(separator: "\n").map { String($0.split(separator: "\t", maxSplits: 1)[0]) }
    }

    @Test func bashWalksSubcommandsOptionsAndValues() throws {
        let script = BashCompletionScript(root: CommandInfo(root: Tool.self)).text
        #expect(try Self.bashCompletions(script, function: "_tool", ["tool", ""]) == ["show", "count", "group"])
        #expect(try Self.bashCompletions(script, function: "_tool", ["tool", "group", ""]) == ["leaf"])
        #expect(try Self.bashCompletions(script, function: "_tool", ["tool", "show", "--st"]) == ["--style"])
        #expect(try Self.bashCompletions(script, function: "_tool", ["tool", "show", "--style", ""]) == ["plain", "fancy"])
        // bash splits --style=f at the '=' (COMP_WORDBREAKS).
        #expect(try Self.bashCompletions(script, function: "_tool", ["tool", "show", "--style", "=", "f"]) == ["fancy"])
        // An option's value is skipped: `fancy` is not taken for a subcommand or a positional.
        #expect(try Self.bashCompletions(script, function: "_tool", ["tool", "show", "--style", "fancy", "-n", ""]) == [])
        #expect(try Self.bashCompletions(script, function: "_tool", ["tool", "show", "--predicate", ""]) == [])
        #expect(try Self.bashCompletions(script, function: "_tool", ["tool", "-"]) == ["--version", "-h", "--help"])
    }

    @Test func bashCompletesFilesForSourceArguments() throws {
        let folder = try TemporaryDirectory("bash-files")
        try folder.write("records.ndjson", "{}\n")
        try folder.write("rest.log", "x\n")
        let script = BashCompletionScript(root: CommandInfo(root: Tool.self)).text
        let offered = try Self.bashCompletions(script, function: "_tool", ["tool", "show", "rec"], in: folder.path)
        #expect(offered == ["records.ndjson"])
        let counted = try Self.bashCompletions(script, function: "_tool", ["tool", "count", "--count", "3", "re"], in: folder.path)
        #expect(counted.sorted() == ["records.ndjson", "rest.log"])
    }

    @Test func valuesWithSpacesAndQuotesStayWhole() throws {
        let info = CommandInfo(root: QuotingTool.self)
        let bash = try Self.bashCompletions(BashCompletionScript(root: info).text, function: "_quoting", ["quoting", "--mode", ""])
        #expect(bash == ["plain", "two words", "it's"])
        let fish = try Self.fishCompletions(FishCompletionScript(root: info).text, "quoting --mode ")
        #expect(fish.sorted() == ["it's", "plain", "two words"])
        let zsh = try run("/usr/bin/zsh", ["-n", "-c", ZshCompletionScript(root: info).text])
        #expect(zsh.status == 0, "zsh -n: \(zsh.stderr)")
    }

    @Test func fishWalksSubcommandsAndValues() throws {
        let script = FishCompletionScript(root: CommandInfo(root: Tool.self)).text
        #expect(try Self.fishCompletions(script, "tool ").sorted() == ["count", "group", "show"])
        #expect(try Self.fishCompletions(script, "tool group ") == ["leaf"])
        #expect(try Self.fishCompletions(script, "tool show --style ").sorted() == ["fancy", "plain"])
        #expect(try Self.fishCompletions(script, "tool show --sty") == ["--style"])
        #expect(try Self.fishCompletions(script, "tool show --style fancy --inf") == ["--info"])
    }

    @Test func zshScriptParsesAndRegistersItself() throws {
        let folder = try TemporaryDirectory("zsh-completion")
        try folder.write("functions/_tool", ZshCompletionScript(root: CommandInfo(root: Tool.self)).text)
        let syntax = try run("/usr/bin/zsh", ["-n", folder.file("functions/_tool").path])
        #expect(syntax.status == 0, "zsh -n: \(syntax.stderr)")
        let check = """
            fpath=("$1" $fpath); autoload -Uz compinit; compinit -u -d "$2"
            print -r -- "$_comps[tool]"; autoload -Uz +X _tool
            [[ $functions[_tool] == *'_tool_group_leaf () {'* ]] && print -r -- defines-the-leaf
            """
        let output = try run("/usr/bin/zsh", ["-f", "-c", check, "zsh", folder.file("functions").path, folder.file("zcompdump").path])
        #expect(output.status == 0, "zsh: \(output.stderr)")
        #expect(output.stdout == "_tool\ndefines-the-leaf\n")
    }

    @Test func manualPagesPassGroffWithoutWarnings() throws {
        let info = CommandInfo(root: QuotingTool.self)
        let page = ManualPage(command: info, root: info)
        #expect(page.fileName == "quoting.1")
        let folder = try TemporaryDirectory("manual")
        let path = try folder.write(page.fileName, page.text)
        let lint = try run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", path])
        #expect(lint.status == 0 && lint.stderr.isEmpty, "groff: \(lint.stderr)")
        let rendered = try run("/usr/bin/groff", ["-man", "-Tutf8", "-P-cbou", "-rLL=200n", path]).stdout
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "SEE ALSO"] {
            #expect(rendered.contains("\n\(section)\n"), "no \(section) section")
        }
        #expect(rendered.contains("It's a [bracketed] choice: back\\slash; $(not run)."))
        #expect(rendered.contains(".starts with a dot"))
        #expect(rendered.contains("'starts with a quote"))
        #expect(rendered.contains("±1"))
        #expect(rendered.contains("values: plain, two words, it's; default: plain"))
    }

    @Test func everySubcommandHasAPageThatNamesTheOthers() {
        let info = CommandInfo(root: Tool.self)
        let names = info.allCommands.map { ManualPage(command: $0, root: info).fileName }
        #expect(names == ["tool.1", "tool-show.1", "tool-count.1", "tool-group.1", "tool-group-leaf.1"])
        let leaf = ManualPage(command: info.allCommands[4], root: info).text
        #expect(leaf.contains("\\fB\\%tool\\-group\\fR(1)"))
        #expect(leaf.contains(".SH ARGUMENTS"))
    }
}
