/// The `--help` text and usage line of a command, laid out as swift-argument-parser does.
struct HelpGenerator {
    static let screenWidth = 80
    static let labelColumn = 26

    let path: [any ParsableCommand.Type]

    var command: any ParsableCommand.Type { path[path.count - 1] }

    /// `diag show`: the names of the commands on the path.
    var commandPath: String { path.map { $0.commandName }.joined(separator: " ") }

    private var definitions: [ArgumentDefinition] { argumentDefinitions(of: makeCommand(command)) }

    var usage: String {
        let configuration = command.configuration
        if let usage = configuration.usage { return usage }
        let definitions = self.definitions
        if !configuration.subcommands.isEmpty, definitions.allSatisfy({ $0.kind != .positional }) {
            return "\(commandPath) <subcommand>"
        }
        let options = definitions.filter { $0.kind != .positional }
        let positionals = definitions.filter { $0.kind == .positional }
        let full = ([commandPath] + options.map(\.usageElement) + positionals.map(\.usageElement)).joined(separator: " ")
        if full.count + "USAGE: ".count <= Self.screenWidth { return full }
        // Too long for one line: optional options fold into `[<options>]`, as argument-parser does.
        let required = options.filter(\.isRequired).map(\.usageElement)
        let folded = options.contains(where: { !$0.isRequired }) ? ["[<options>]"] : []
        return ([commandPath] + required + folded + positionals.map(\.usageElement)).joined(separator: " ")
    }

    var help: String {
        let configuration = command.configuration
        var sections: [String] = []
        if !configuration.abstract.isEmpty {
            sections.append(wrap("OVERVIEW: " + configuration.abstract, indent: 0))
        }
        if !configuration.discussion.isEmpty {
            sections.append(configuration.discussion.split(separator: "\n", omittingEmptySubsequences: false)
                .map { wrap(String($0), indent: 0) }.joined(separator: "\n"))
        }
        sections.append("USAGE: " + usage)
        let definitions = self.definitions
        let positionals = definitions.filter { $0.kind == .positional }
        if !positionals.isEmpty {
            sections.append("ARGUMENTS:\n" + positionals.map(row).joined(separator: "\n"))
        }
        // Titled option groups get a section each, in the order they are declared.
        let options = definitions.filter { $0.kind != .positional }
        var titles: [String] = []
        for title in options.compactMap(\.groupTitle) where !titles.contains(title) { titles.append(title) }
        for title in titles {
            sections.append(title.uppercased() + ":\n" + options.filter { $0.groupTitle == title }.map(row).joined(separator: "\n"))
        }
        var optionRows = options.filter { $0.groupTitle == nil }.map(row)
        if path.count == 1, configuration.version != nil {
            optionRows.append(row(label: "--version", help: "Show the version."))
        }
        optionRows.append(row(label: "-h, --help", help: "Show help information."))
        sections.append("OPTIONS:\n" + optionRows.joined(separator: "\n"))
        if !configuration.subcommands.isEmpty {
            let rows = configuration.subcommands.map { row(label: $0.commandName, help: $0.configuration.abstract) }
            sections.append("SUBCOMMANDS:\n" + rows.joined(separator: "\n")
                + "\n\n  See '\(helpCommand) <subcommand>' for detailed help.")
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `diag help`, `diag help predicate`: how to ask for a subcommand's help from here.
    private var helpCommand: String {
        ([path[0].commandName, "help"] + path.dropFirst().map { $0.commandName }).joined(separator: " ")
    }

    private func row(_ definition: ArgumentDefinition) -> String {
        var help = definition.help
        var notes: [String] = []
        if !definition.allowedValues.isEmpty { notes.append("values: " + definition.allowedValues.joined(separator: ", ")) }
        if let value = definition.defaultDescription, !value.isEmpty { notes.append("default: " + value) }
        if definition.isRepeating, definition.kind == .option { notes.append("repeatable") }
        if !notes.isEmpty { help += (help.isEmpty ? "" : " ") + "(" + notes.joined(separator: "; ") + ")" }
        return row(label: definition.helpLabel, help: help)
    }

    /// Two spaces, the label, then the help from column 26 (on the next line when the label is long).
    private func row(label: String, help: String) -> String {
        let lead = "  " + label
        let indent = String(repeating: " ", count: Self.labelColumn)
        let wrapped = wrap(help, indent: Self.labelColumn)
        if help.isEmpty { return lead }
        if lead.count < Self.labelColumn - 1 {
            return lead + String(repeating: " ", count: Self.labelColumn - lead.count) + wrapped.dropFirst(Self.labelColumn)
        }
        return lead + "\n" + indent + wrapped.dropFirst(Self.labelColumn)
    }

    /// Word-wraps `text` to the screen width, every line indented by `indent` spaces.
    private func wrap(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = pad
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.count > indent, line.count + 1 + word.count > Self.screenWidth {
                lines.append(line)
                line = pad
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
