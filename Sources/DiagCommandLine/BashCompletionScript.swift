import Foundation

/// The bash completion script of a command tree (`--generate-completion-script bash`).
///
/// The script walks the words before the cursor as the parser does: a known subcommand name
/// (before any positional) enters that subcommand, an option that takes a value skips its value.
/// Then it offers the value of the option before the cursor (its type's values, files or
/// folders), options after `-`, subcommands, or what the positional arguments take.
struct BashCompletionScript {
    let root: CommandInfo

    /// `_diag`, `_diagd`: the prefix of every function of the script.
    private var prefix: String { "_" + ShellText.identifier(root.name) }

    var text: String {
        let commands = root.allCommands
        var lines: [String] = [
            "# bash completion for \(root.name). Generated from \(root.name)'s command definitions by",
            "# `\(root.name) --generate-completion-script bash`: regenerate it rather than edit it.",
            "",
            "# The words of command $1 (e.g. '\(root.name) show'): its subcommands, options, or the",
            "# options that take a value ($2), into \(prefix)_list.",
            "\(prefix)_words() {",
            "    case \"$1|$2\" in",
        ]
        for command in commands {
            let names = command.subcommands.map(\.name)
            let options = command.options.flatMap(Self.spellings)
            let valued = command.options.filter(\.takesValue).flatMap(Self.spellings)
            for (what, words) in [("subcommands", names), ("options", options), ("valued", valued)] where !words.isEmpty {
                lines.append("        \(ShellText.singleQuoted(command.commandLine + "|" + what))) \(prefix)_list=(\(words.map(ShellText.singleQuoted).joined(separator: " "))) ;;")
            }
        }
        lines += [
            "        *) \(prefix)_list=() ;;",
            "    esac",
            "}",
            "",
            "# Completes the value of option $2 of command $1 into COMPREPLY; $3 is what is typed so far.",
            "\(prefix)_value() {",
            "    case \"$1|$2\" in",
        ]
        for command in commands {
            for option in command.options where option.takesValue && option.completion != .none {
                let patterns = Self.spellings(option).map { ShellText.singleQuoted(command.commandLine + "|" + $0) }
                lines.append("        \(patterns.joined(separator: "|"))) \(action(option.completion, values: option.allowedValues, typed: "$3")) ;;")
            }
        }
        lines += [
            "        *) COMPREPLY=() ;;",
            "    esac",
            "}",
            "",
            "# Completes a positional argument of command $1; returns 1 when the command takes none",
            "# that can be completed.",
            "\(prefix)_positional() {",
            "    case \"$1\" in",
        ]
        for command in commands {
            if let positional = command.positionals.first(where: { $0.completion != .none }) {
                lines.append("        \(ShellText.singleQuoted(command.commandLine))) \(action(positional.completion, values: positional.allowedValues, typed: "$2")) ;;")
            }
        }
        lines += [
            "        *) return 1 ;;",
            "    esac",
            "}",
            "",
            "# Offers the words after $1 that start with $1. Not compgen -W, which would expand and",
            "# split the words (a value may hold spaces or quotes).",
            "\(prefix)_offer() {",
            "    local typed=\"$1\" word",
            "    shift",
            "    COMPREPLY=()",
            "    for word in \"$@\"; do [[ $word == \"$typed\"* ]] && COMPREPLY+=(\"$word\"); done",
            "}",
            "",
            "\(prefix)() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" command=\(ShellText.singleQuoted(root.name)) word index expecting=\"\" positional=0 \(prefix)_list=()",
            "    for ((index = 1; index < COMP_CWORD; index++)); do",
            "        word=\"${COMP_WORDS[index]}\"",
            "        # COMP_WORDBREAKS splits --style=json into three words; the value follows the '='.",
            "        if [[ $word == = ]]; then expecting=1; continue; fi",
            "        if [[ -n $expecting ]]; then expecting=\"\"; continue; fi",
            "        if [[ $word == -* && $word != - ]]; then",
            "            \(prefix)_words \"$command\" valued",
            "            for option in \"${\(prefix)_list[@]}\"; do [[ $option == \"$word\" ]] && expecting=1; done",
            "            continue",
            "        fi",
            "        if ((positional == 0)); then",
            "            \(prefix)_words \"$command\" subcommands",
            "            for name in \"${\(prefix)_list[@]}\"; do",
            "                if [[ $name == \"$word\" ]]; then command=\"$command $word\"; continue 2; fi",
            "            done",
            "        fi",
            "        positional=1",
            "    done",
            "    local previous=\"${COMP_WORDS[COMP_CWORD-1]}\"",
            "    if [[ $previous == = && $COMP_CWORD -ge 2 ]]; then previous=\"${COMP_WORDS[COMP_CWORD-2]}\"; expecting=1; fi",
            "    if [[ -n $expecting ]]; then \(prefix)_value \"$command\" \"$previous\" \"$cur\"; return 0; fi",
            "    if [[ $cur == -* ]]; then",
            "        \(prefix)_words \"$command\" options",
            "        \(prefix)_offer \"$cur\" \"${\(prefix)_list[@]}\"",
            "        return 0",
            "    fi",
            "    if ((positional == 0)); then",
            "        \(prefix)_words \"$command\" subcommands",
            "        if ((${#\(prefix)_list[@]} > 0)); then \(prefix)_offer \"$cur\" \"${\(prefix)_list[@]}\"; return 0; fi",
            "    fi",
            "    \(prefix)_positional \"$command\" \"$cur\" && return 0",
            "    \(prefix)_words \"$command\" options",
            "    \(prefix)_offer \"$cur\" \"${\(prefix)_list[@]}\"",
            "}",
            "",
            "complete -F \(prefix) \(root.name)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `-n` and `--lines`.
    static func spellings(_ option: ArgumentInfo) -> [String] {
        (option.shortName.map { ["-" + $0] } ?? []) + (option.longName.map { ["--" + $0] } ?? [])
    }

    /// The bash that fills COMPREPLY for a value of this kind; `typed` is the variable holding
    /// the word typed so far.
    private func action(_ completion: ArgumentInfo.ValueCompletion, values: [String], typed: String) -> String {
        switch completion {
        case .none: return "COMPREPLY=()"
        case .values: return "\(prefix)_offer \"\(typed)\" " + values.map(ShellText.singleQuoted).joined(separator: " ")
        case .file: return "compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"\(typed)\")"
        case .directory: return "compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- \"\(typed)\")"
        }
    }
}

/// Quoting for the generated shell scripts.
enum ShellText {
    /// `'it'\''s'`: single quotes, in which sh, bash and zsh take every character but `'` as is.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `diag-bench` → `diag_bench`: a name usable in a function name.
    static func identifier(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
