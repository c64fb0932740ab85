import Foundation

/// The fish completion script of a command tree (`--generate-completion-script fish`): a
/// function that finds which command the words typed so far reached (as the parser does:
/// subcommand names, skipping option values), and one `complete` line per subcommand, option
/// and positional, each under the condition that its command was reached.
struct FishCompletionScript {
    let root: CommandInfo

    private var prefix: String { "__fish_" + ShellText.identifier(root.name) }

    var text: String {
        let commands = root.allCommands
        var lines = [
            "# fish completion for \(root.name). Generated from \(root.name)'s command definitions by",
            "# `\(root.name) --generate-completion-script fish`: regenerate it rather than edit it.",
            "",
            "# Prints the command the words before the cursor reached, e.g. '\(root.name) show'.",
            "function \(prefix)_command",
            "    set -l command \(Self.quoted(root.name))",
            "    set -l expecting 0",
            "    set -l positional 0",
            "    for word in (commandline -opc)[2..-1]",
            "        if test $expecting = 1",
            "            set expecting 0",
            "            continue",
            "        end",
            "        switch \"$command|$word\"",
        ]
        for command in commands {
            let valued = command.options.filter(\.takesValue).flatMap(BashCompletionScript.spellings)
            if !valued.isEmpty {
                lines.append("            case " + valued.map { Self.quoted(command.commandLine + "|" + $0) }.joined(separator: " "))
                lines.append("                set expecting 1")
                lines.append("                continue")
            }
            if !command.subcommands.isEmpty {
                lines.append("            case " + command.subcommands.map { Self.quoted(command.commandLine + "|" + $0.name) }.joined(separator: " "))
                lines.append("                if test $positional = 0")
                lines.append("                    set command \"$command $word\"")
                lines.append("                    continue")
                lines.append("                end")
            }
        }
        lines += [
            "        end",
            "        string match -q -- '-*' $word; or set positional 1",
            "    end",
            "    echo $command",
            "end",
            "",
            "function \(prefix)_at",
            "    test (\(prefix)_command) = \"$argv\"",
            "end",
            "",
            "complete -c \(root.name) -f",
        ]
        for command in commands {
            let condition = "-n " + Self.quoted("\(prefix)_at \(command.commandLine)")
            for subcommand in command.subcommands {
                lines.append("complete -c \(root.name) \(condition) -a \(Self.quoted(subcommand.name)) -d \(Self.quoted(ZshCompletionScript.firstSentence(subcommand.abstract)))")
            }
            for option in command.options {
                var line = "complete -c \(root.name) \(condition)"
                if let long = option.longName { line += " -l " + Self.quoted(long) }
                if let short = option.shortName { line += " -s " + Self.quoted(short) }
                if option.takesValue { line += " " + valueArguments(option) }
                line += " -d " + Self.quoted(ZshCompletionScript.firstSentence(option.help))
                lines.append(line)
            }
            if command.subcommands.isEmpty, let positional = command.positionals.first(where: { $0.completion != .none }) {
                lines.append("complete -c \(root.name) \(condition) \(valueArguments(positional))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `-r -F` (a file), `-x -a '(__fish_complete_directories)'`, `-x -a 'a b'`, or `-x` (open text).
    private func valueArguments(_ argument: ArgumentInfo) -> String {
        let required = argument.kind == .positional ? "" : "-r "
        switch argument.completion {
        case .none: return "-x"
        case .file: return required + "-F"
        case .directory: return "-x -a '(__fish_complete_directories)'"
        case .values: return "-x -a " + Self.quoted(argument.allowedValues.map(Self.escapedWord).joined(separator: " "))
        }
    }

    /// Fish's single quotes take every character but `'` and `\` as is.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// A value inside `-a`'s list, which fish splits on spaces.
    private static func escapedWord(_ value: String) -> String {
        var result = ""
        for character in value {
            if " \\'\"()$;&|*?".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
