/// Turns command-line words into a command instance: finds the subcommand, then assigns options,
/// flags and positional arguments to the instance's property wrappers.
struct CommandParser {
    let root: any ParsableCommand.Type
    /// The commands chosen so far, root first; kept so errors can print the right usage line.
    private(set) var path: [any ParsableCommand.Type]

    init(root: any ParsableCommand.Type) {
        self.root = root
        path = [root]
    }

    mutating func parse(_ words: [String]) throws -> any ParsableCommand {
        var command = makeCommand(root)
        var definitions = argumentDefinitions(of: command)
        var positionalIndex = 0
        var sawPositional = false
        var onlyPositionals = false
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            let current = path[path.count - 1]
            if !onlyPositionals {
                if word == "--" { onlyPositionals = true; continue }
                if word == "--help" || word == "-h" { throw CleanExit.help(path: path) }
                if word == "--version", let version = root.configuration.version,
                   !definitions.contains(where: { $0.longName == "version" })
                {
                    throw CleanExit.version(version)
                }
                if word.hasPrefix("--") {
                    try parseLongOption(word, words, &index, definitions)
                    continue
                }
                if word.hasPrefix("-"), word.count > 1, !isNumber(word) {
                    try parseShortOption(word, words, &index, definitions)
                    continue
                }
                if !sawPositional, !current.configuration.subcommands.isEmpty {
                    if word == "help", !current.configuration.subcommands.contains(where: { $0.commandName == "help" }) {
                        throw CleanExit.help(path: try resolveHelpPath(Array(words[index...])))
                    }
                    if let subcommand = current.configuration.subcommands.first(where: { $0.commandName == word }) {
                        path.append(subcommand)
                        command = makeCommand(subcommand)
                        definitions = argumentDefinitions(of: command)
                        positionalIndex = 0
                        continue
                    }
                    if !definitions.contains(where: { $0.kind == .positional }) {
                        let names = current.configuration.subcommands.map { $0.commandName }
                        let guess = Suggestion.clause(for: word, among: names)
                        throw ValidationError("Unknown subcommand '\(word)'\(guess); the subcommands are: \(names.joined(separator: ", "))")
                    }
                }
            }
            sawPositional = true
            let positionals = definitions.filter { $0.kind == .positional }
            guard positionalIndex < positionals.count else {
                throw ValidationError("Unexpected argument '\(word)'")
            }
            let definition = positionals[positionalIndex]
            guard definition.assign(word) else { throw invalidValue(word, for: definition) }
            if !definition.isRepeating { positionalIndex += 1 }
        }
        for definition in definitions where definition.isRequired && !definition.wasGiven() {
            throw ValidationError("Missing expected argument '\(definition.synopsis)'")
        }
        return command
    }

    private func parseLongOption(_ word: String, _ words: [String], _ index: inout Int, _ definitions: [ArgumentDefinition]) throws {
        let body = word.dropFirst(2)
        let name: Substring
        var inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = body[..<equals]
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = body
        }
        guard let definition = definitions.first(where: { $0.kind != .positional && $0.longName == String(name) }) else {
            let longNames = definitions.filter { $0.kind != .positional }.compactMap(\.longName) + ["help"]
            throw ValidationError("Unknown option '--\(name)'\(Suggestion.clause(for: String(name), among: longNames, prefix: "--"))")
        }
        try assign(definition, inlineValue: inlineValue, words, &index, definitions)
    }

    private func parseShortOption(_ word: String, _ words: [String], _ index: inout Int, _ definitions: [ArgumentDefinition]) throws {
        let letter = word.dropFirst()
        guard letter.count == 1, let definition = definitions.first(where: { $0.kind != .positional && $0.shortName == letter.first }) else {
            throw ValidationError("Unknown option '\(word)'")
        }
        try assign(definition, inlineValue: nil, words, &index, definitions)
    }

    private func assign(
        _ definition: ArgumentDefinition, inlineValue: String?, _ words: [String], _ index: inout Int, _ definitions: [ArgumentDefinition]
    ) throws {
        if definition.kind == .flag {
            guard inlineValue == nil else { throw ValidationError("The flag '\(definition.synopsis)' takes no value") }
            _ = definition.assign("")
            return
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else {
            guard index < words.count, !looksLikeOption(words[index], definitions) else {
                throw ValidationError("Missing value for '\(definition.synopsis)'")
            }
            value = words[index]
            index += 1
        }
        guard definition.assign(value) else { throw invalidValue(value, for: definition) }
    }

    /// A following word is taken as a value unless it is clearly another option, so that
    /// `--timezone -0500` and `--var X=-1` work.
    private func looksLikeOption(_ word: String, _ definitions: [ArgumentDefinition]) -> Bool {
        if word.hasPrefix("--") || word == "-h" { return true }
        guard word.count == 2, word.hasPrefix("-") else { return false }
        return definitions.contains { $0.shortName != nil && $0.shortName == word.last }
    }

    private func invalidValue(_ value: String, for definition: ArgumentDefinition) -> ValidationError {
        var message = "The value '\(value)' is invalid for '\(definition.synopsis)'"
        if !definition.allowedValues.isEmpty {
            message += "; accepted values: " + definition.allowedValues.map { "'\($0)'" }.joined(separator: ", ")
        }
        return ValidationError(message)
    }

    private func resolveHelpPath(_ names: [String]) throws -> [any ParsableCommand.Type] {
        var helpPath = path
        for name in names {
            let current = helpPath[helpPath.count - 1]
            guard let subcommand = current.configuration.subcommands.first(where: { $0.commandName == name }) else {
                let all = current.configuration.subcommands.map { $0.commandName }
                let guess = Suggestion.clause(for: name, among: all)
                throw ValidationError("Unknown subcommand '\(name)'\(guess); the subcommands are: \(all.joined(separator: ", "))")
            }
            helpPath.append(subcommand)
        }
        return helpPath
    }

    private func isNumber(_ word: String) -> Bool {
        Double(word) != nil
    }
}

/// A fresh instance of a command type chosen at run time.
func makeCommand<Command: ParsableCommand>(_ type: Command.Type) -> any ParsableCommand {
    Command()
}
