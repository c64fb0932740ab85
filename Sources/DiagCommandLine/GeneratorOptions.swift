import Foundation

/// The root command's hidden options, as swift-argument-parser has them: they write what is
/// generated from the command definitions and are left out of `--help`, since they serve
/// packagers (`make install`) rather than users.
///
/// - `--generate-completion-script bash|zsh|fish`: the shell's completion script on stdout.
/// - `--generate-manual DIR`: one manual page per command into DIR (`diag.1`, `diag-show.1`, …).
/// - `--experimental-dump-help`: the command tree as JSON (what the two others are made from).
struct GeneratorOptions {
    static let names = ["--generate-completion-script", "--generate-manual", "--experimental-dump-help"]
    static let shells = ["bash", "zsh", "fish"]

    let root: any ParsableCommand.Type

    /// The exit status when `arguments` ask for one of the generators; nil otherwise.
    func run(_ arguments: [String]) -> Int32? {
        guard let first = arguments.first else { return nil }
        var name = first
        var values = Array(arguments.dropFirst())
        if let equals = first.firstIndex(of: "="), first.hasPrefix("--") {
            name = String(first[..<equals])
            values.insert(String(first[first.index(after: equals)...]), at: 0)
        }
        guard Self.names.contains(name) else { return nil }
        do {
            try generate(name, values)
            return ExitCode.success.rawValue
        } catch let error as ValidationError {
            StandardStream.error.write("Error: \(CommandRunner.escaped(error.message))\nUsage: \(root.commandName) \(name)\(name == "--experimental-dump-help" ? "" : name == "--generate-manual" ? " <directory>" : " <shell>")\n")
            return ExitCode.usageError.rawValue
        } catch {
            StandardStream.error.write("Error: \(CommandRunner.escaped(String(describing: error)))\n")
            return ExitCode.failure.rawValue
        }
    }

    private func generate(_ name: String, _ values: [String]) throws {
        let info = CommandInfo(root: root)
        switch name {
        case "--generate-completion-script":
            guard values.count == 1 else {
                throw ValidationError("\(name) takes one shell: \(Self.shells.joined(separator: ", "))")
            }
            switch values[0] {
            case "bash": StandardStream.output.write(BashCompletionScript(root: info).text)
            case "zsh": StandardStream.output.write(ZshCompletionScript(root: info).text)
            case "fish": StandardStream.output.write(FishCompletionScript(root: info).text)
            default:
                throw ValidationError("The shell '\(values[0])' is not one \(name) knows; accepted: \(Self.shells.joined(separator: ", "))")
            }
        case "--generate-manual":
            guard values.count == 1, !values[0].isEmpty else { throw ValidationError("\(name) takes one directory to write the pages into") }
            try writeManual(info, into: values[0])
        default:
            guard values.isEmpty else { throw ValidationError("\(name) takes no value; it got '\(values[0])'") }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            StandardStream.output.write(String(decoding: try encoder.encode(info), as: UTF8.self) + "\n")
        }
    }

    private func writeManual(_ info: CommandInfo, into directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw RuntimeError("cannot create the manual directory '\(directory)': \(error.localizedDescription)")
        }
        for command in info.allCommands {
            let page = ManualPage(command: command, root: info)
            let path = (directory as NSString).appendingPathComponent(page.fileName)
            guard FileManager.default.createFile(atPath: path, contents: Data(page.text.utf8)) else {
                throw RuntimeError("cannot write the manual page '\(path)' (\(String(cString: strerror(errno))))")
            }
        }
    }
}
