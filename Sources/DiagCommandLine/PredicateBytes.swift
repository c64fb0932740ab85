import Foundation

/// `CommandLine.arguments` repairs bytes that are not UTF-8 into U+FFFD, so a predicate given
/// with `--predicate` would silently compare against other text than the one typed, while the
/// same bytes read from `--predicate-file` are refused. The raw arguments are checked here.
enum PredicateBytes {
    /// The refusal for a `--predicate` value that is not valid UTF-8, or nil.
    static func invalidPredicate(_ argv: [UnsafeMutablePointer<CChar>?] = rawArguments()) -> String? {
        var index = 1
        while index < argv.count {
            guard let argument = argv[index] else { break }
            let name = String(decoding: UnsafeRawBufferPointer(start: argument, count: strlen(argument)).prefix(12), as: UTF8.self)
            var value: UnsafeMutablePointer<CChar>?
            if name == "--predicate", strlen(argument) == 11, index + 1 < argv.count {
                value = argv[index + 1]
            } else if name == "--predicate=" {
                value = argument
            }
            if let value, String(validatingCString: value) == nil {
                return "--predicate: the predicate is not valid UTF-8 (argument \(index + (name == "--predicate" ? 1 : 0))); a predicate is text, as in a --predicate-file"
            }
            index += 1
        }
        return nil
    }

    static func rawArguments() -> [UnsafeMutablePointer<CChar>?] {
        (0..<Int(CommandLine.argc)).map { CommandLine.unsafeArgv[$0] }
    }
}
