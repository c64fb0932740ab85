import Foundation

/// Parses, validates and runs a command, and turns every way it can end into output and an exit
/// status: help and version on stdout (0), `Error: …` on stderr (64 with usage, 65, 1).
struct CommandRunner {
    let root: any ParsableCommand.Type

    func run(arguments: [String]) -> Int32 {
        if let status = GeneratorOptions(root: root).run(arguments) { return status }
        var parser = CommandParser(root: root)
        do {
            var command = try parser.parse(arguments)
            try validateOptionGroups(of: command)
            try command.validate()
            try command.run()
            try CompletionChecks.run()
            return ExitCode.success.rawValue
        } catch {
            return report(error, path: parser.path)
        }
    }

    private func report(_ error: any Error, path: [any ParsableCommand.Type]) -> Int32 {
        switch error {
        case CleanExit.help(let helpPath):
            StandardStream.output.write(HelpGenerator(path: helpPath).help)
            return ExitCode.success.rawValue
        case CleanExit.version(let version):
            StandardStream.output.write(version + "\n")
            return ExitCode.success.rawValue
        case is CleanExit.HelpRequest:
            StandardStream.output.write(HelpGenerator(path: path).help)
            return ExitCode.success.rawValue
        case let code as ExitCode:
            return code.rawValue
        case let error as ValidationError:
            let help = HelpGenerator(path: path)
            StandardStream.error.write("""
                Error: \(Self.escaped(error.message))
                Usage: \(help.usage)
                See '\(help.commandPath) --help' for more information.

                """)
            return ExitCode.usageError.rawValue
        case let error as InputError:
            StandardStream.error.write("Error: \(Self.escaped(error.message))\n")
            return ExitCode.dataError.rawValue
        default:
            StandardStream.error.write("Error: \(Self.escaped(String(describing: error)))\n")
            return ExitCode.failure.rawValue
        }
    }
}

extension CommandRunner {
    /// An error message with the control characters of what it quotes (a file's first line, an
    /// entry name, a value from a bundle) shown as `\u{XX}`, as DiagModel's `TerminalText` shows
    /// record text: a message must not drive the terminal. Its own newlines and tabs stay, so
    /// that a multi-line message (a predicate with a caret under it) keeps its shape.
    static func escaped(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: needsEscape) else { return message }
        var result = ""
        for scalar in message.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00..<0x20, 0x7F...0x9F: true
        default: false
        }
    }
}

/// Writes straight to a file descriptor, for the runner's few messages (commands with much
/// output use DiagOutput's buffered writer and flush it before they return).
public struct StandardStream: Sendable {
    public let descriptor: Int32

    public static let output = StandardStream(descriptor: 1)
    public static let error = StandardStream(descriptor: 2)

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Whether the descriptor is a terminal (for colour and progress lines).
    public var isTerminal: Bool { isatty(descriptor) == 1 }
}
