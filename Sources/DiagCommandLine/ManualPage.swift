import Foundation

/// The manual page of one command in roff with the man macros (`--generate-manual`): NAME,
/// SYNOPSIS, DESCRIPTION (the abstract and discussion), ARGUMENTS, OPTIONS, SUBCOMMANDS,
/// EXIT STATUS and SEE ALSO. `diag show`'s page is `diag-show.1`, as git's are.
struct ManualPage {
    let command: CommandInfo
    /// The whole tree, for SEE ALSO.
    let root: CommandInfo

    var fileName: String { "\(command.pageName).\(command.manualSection)" }

    var text: String {
        var lines = [
            ".\\\" Generated from \(root.name)'s command definitions by `\(root.name) --generate-manual`:",
            ".\\\" regenerate it rather than edit it.",
            ".TH \(Self.quotedArgument(command.pageName.uppercased())) \(command.manualSection) \"\" \(Self.quotedArgument(root.version ?? root.name)) \"\"",
            ".SH NAME",
            Self.escaped(command.pageName) + " \\- " + Self.escaped(command.abstract.isEmpty ? command.commandLine : command.abstract),
            ".SH SYNOPSIS",
            ".nh",
            ".ad l",
            synopsis,
            ".ad",
            ".hy",
            ".SH DESCRIPTION",
        ]
        lines += Self.paragraphs(command.abstract)
        if !command.discussion.isEmpty { lines += [".PP"] + Self.paragraphs(command.discussion) }
        if !command.positionals.isEmpty {
            lines.append(".SH ARGUMENTS")
            for positional in command.positionals { lines += entry(positional) }
        }
        lines.append(".SH OPTIONS")
        for option in command.options { lines += entry(option) }
        if !command.subcommands.isEmpty {
            lines.append(".SH SUBCOMMANDS")
            for subcommand in command.subcommands {
                lines += [".TP", "\\fB\(Self.escaped(subcommand.name))\\fR", Self.escaped(subcommand.abstract),
                          "See \\fB\\%\(Self.escaped(subcommand.pageName))\\fR(\(subcommand.manualSection)).",]
            }
        }
        lines += [
            ".SH EXIT STATUS",
            ".TP", "\\fB0\\fR", "Success (and for \\fB\\-\\-help\\fR).",
            ".TP", "\\fB1\\fR", "The work failed at run time (I/O, a store that cannot be opened).",
            ".TP", "\\fB64\\fR", "The command line was wrong (EX_USAGE); the message says which argument and what is accepted.",
            ".TP", "\\fB65\\fR", "The input data or the predicate was wrong (EX_DATAERR); the message says where.",
            ".SH SEE ALSO",
            seeAlso.joined(separator: ",\n"),
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `\fBdiag show\fR [\fB\-\-info\fR] [\fB\-\-style\fR \fIstyle\fR] [\fIsource\fR ...]`.
    private var synopsis: String {
        var parts = ["\\fB\(Self.escaped(command.commandLine))\\fR"]
        if !command.subcommands.isEmpty { parts.append("\\fIsubcommand\\fR") }
        for option in command.options where option.longName != "help" && option.longName != "version" {
            var part = "\\fB\(Self.escaped(option.displayName))\\fR"
            if option.takesValue { part += " \\fI\(Self.escaped(option.valueName))\\fR" }
            if option.isRepeating { part += " ..." }
            parts.append(option.isRequired ? part : "[" + part + "]")
        }
        for positional in command.positionals {
            var part = "\\fI\(Self.escaped(positional.valueName))\\fR"
            if positional.isRepeating { part += " ..." }
            parts.append(positional.isRequired ? part : "[" + part + "]")
        }
        return parts.joined(separator: "\n")
    }

    private func entry(_ argument: ArgumentInfo) -> [String] {
        var label: String
        switch argument.kind {
        case .positional:
            label = "\\fI\(Self.escaped(argument.valueName))\\fR" + (argument.isRepeating ? " ..." : "")
        case .flag, .option:
            label = argument.shortName.map { "\\fB\(Self.escaped("-" + $0))\\fR, " } ?? ""
            label += "\\fB\(Self.escaped(argument.displayName))\\fR"
            if argument.takesValue { label += " \\fI\(Self.escaped(argument.valueName))\\fR" }
        }
        let help = argument.fullHelp.isEmpty ? "(No description.)" : argument.fullHelp
        return [".TP", label] + Self.paragraphs(help)
    }

    /// Page names behind `\%`, which keeps groff from hyphenating them at a line's end.
    private var seeAlso: [String] {
        var pages = root.allCommands.filter { $0.path != command.path }.map { "\\fB\\%\(Self.escaped($0.pageName))\\fR(\($0.manualSection))" }
        for page in root.seeAlso {
            // `diagd(8)`: the name in bold, the section as is.
            if let open = page.firstIndex(of: "("), page.hasSuffix(")") {
                pages.append("\\fB\(Self.escaped(String(page[..<open])))\\fR" + Self.escaped(String(page[open...])))
            } else {
                pages.append("\\fB\(Self.escaped(page))\\fR")
            }
        }
        return pages
    }

    /// Text as roff lines: a blank line starts a new paragraph (`.PP`); other line breaks of
    /// the definitions are kept (`.br`), since help texts put one statement per line.
    static func paragraphs(_ text: String) -> [String] {
        var lines: [String] = []
        var previousBlank = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                previousBlank = true
                continue
            }
            if previousBlank, !lines.isEmpty { lines.append(".PP") } else if !lines.isEmpty { lines.append(".br") }
            previousBlank = false
            lines.append(escaped(String(line)))
        }
        return lines
    }

    /// Text safe in a roff text line: backslashes as `\e`, hyphens as `\-` (so options copy
    /// as typed), other than ASCII as `\[u00B1]` (groff reads a file as Latin-1 unless told),
    /// a leading `.` or `'` (which would start a request) behind `\&`.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case _ where scalar.value > 0x7E || scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += scalar.value < 0x20 || scalar.value == 0x7F ? " " : "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    /// A macro argument in double quotes (a `"` inside as `""`, groff's convention).
    static func quotedArgument(_ text: String) -> String {
        "\"" + escaped(text).replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
