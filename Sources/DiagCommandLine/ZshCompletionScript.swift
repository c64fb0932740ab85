import Foundation

/// The zsh completion script of a command tree (`--generate-completion-script zsh`): one
/// function per command, each an `_arguments` call; a command with subcommands hands the words
/// after its subcommand's name to that subcommand's function, as swift-argument-parser's do.
struct ZshCompletionScript {
    let root: CommandInfo

    var text: String {
        var lines = [
            "#compdef \(root.name)",
            "# zsh completion for \(root.name). Generated from \(root.name)'s command definitions by",
            "# `\(root.name) --generate-completion-script zsh`: regenerate it rather than edit it.",
            "# Install it as _\(root.name) in a folder of $fpath.",
            "",
        ]
        for command in root.allCommands {
            lines += function(command) + [""]
        }
        lines.append("_\(ShellText.identifier(root.name)) \"$@\"")
        return lines.joined(separator: "\n") + "\n"
    }

    private func functionName(_ command: CommandInfo) -> String {
        "_" + command.path.map(ShellText.identifier).joined(separator: "_")
    }

    private func function(_ command: CommandInfo) -> [String] {
        var specs = command.options.map(optionSpec)
        if command.subcommands.isEmpty {
            specs += command.positionals.map(positionalSpec)
        } else {
            specs += ["'1: :->subcommand'", "'*:: :->arguments'"]
        }
        var lines = ["\(functionName(command))() {"]
        if command.subcommands.isEmpty {
            lines.append("    _arguments -s -S \\")
            lines += specs.map { "        \($0) \\" }
            lines[lines.count - 1].removeLast(2)
            lines.append("}")
            return lines
        }
        lines += [
            "    local context state state_descr line",
            "    typeset -A opt_args",
            "    _arguments -s -S -C \\",
        ]
        lines += specs.map { "        \($0) \\" }
        lines[lines.count - 1].removeLast(2)
        lines += [
            "    case $state in",
            "        subcommand)",
            "            local -a subcommands",
            "            subcommands=(",
        ]
        for subcommand in command.subcommands {
            let entry = subcommand.name.replacingOccurrences(of: ":", with: "\\:") + ":" + Self.firstSentence(subcommand.abstract)
            lines.append("                \(ShellText.singleQuoted(entry))")
        }
        lines += [
            "            )",
            "            _describe -t subcommands \(ShellText.singleQuoted(command.commandLine + " subcommand")) subcommands",
            "            ;;",
            "        arguments)",
            "            case $words[1] in",
        ]
        for subcommand in command.subcommands {
            lines.append("                \(ShellText.singleQuoted(subcommand.name))) \(functionName(subcommand)) ;;")
        }
        lines += ["            esac", "            ;;", "    esac", "}"]
        return lines
    }

    /// `'--style=[The output style.]:style:(default compact json)'`, with `-s` and `--style` as
    /// one spec when the option has both names.
    private func optionSpec(_ option: ArgumentInfo) -> String {
        let description = "[" + Self.escapedDescription(Self.firstSentence(option.help)) + "]"
        let value = option.takesValue ? ":" + Self.escapedMessage(option.valueName) + ":" + action(option) : ""
        let repeating = option.isRepeating ? "*" : ""
        let equals = option.takesValue ? "=" : ""
        let long = option.longName.map { "--" + $0 + equals }
        let short = option.shortName.map { "-" + $0 }
        if let long, let short {
            let exclusion = option.isRepeating ? "" : "'(\(short) --\(option.longName!))'"
            return exclusion + (repeating.isEmpty ? "" : "'*'") + "{\(short),\(long)}" + ShellText.singleQuoted(description + value)
        }
        return ShellText.singleQuoted(repeating + (long ?? short ?? "") + description + value)
    }

    private func positionalSpec(_ positional: ArgumentInfo) -> String {
        let lead = positional.isRepeating ? "*" : (positional.isRequired ? "" : ":")
        return ShellText.singleQuoted(lead + ":" + Self.escapedMessage(positional.valueName) + ":" + action(positional))
    }

    private func action(_ argument: ArgumentInfo) -> String {
        switch argument.completion {
        case .none: return " "
        case .values: return "(" + argument.allowedValues.map(Self.escapedValue).joined(separator: " ") + ")"
        case .file: return "_files"
        case .directory: return "_files -/"
        }
    }

    /// The help up to its first full stop, for the one line zsh shows beside an option.
    static func firstSentence(_ help: String) -> String {
        let flat = help.replacingOccurrences(of: "\n", with: " ")
        guard let end = flat.range(of: ". ") else { return flat }
        return String(flat[..<end.lowerBound]) + "."
    }

    private static func escapedDescription(_ text: String) -> String {
        var result = ""
        for character in text {
            if "[]\\".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    private static func escapedMessage(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
    }

    private static func escapedValue(_ value: String) -> String {
        var result = ""
        for character in value {
            if " ()\\:".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
