import Foundation

/// `CommandLine.arguments` repairs bytes that are not UTF-8 into U+FFFD, so a predicate given
/// with `--predicate` would silently compare against other text than the one typed, while the
/// same bytes read from `--predicate-file` are refused. The raw arguments are checked here.
enum PredicateBytes {
    /// The refusal for a `--predicate` value that is not valid UTF-8, or nil.
    ///
    /// Walks `argv` in place: an array of its pointers was the first generic metadata a `diag`
    /// run made (0.2 ms of every command, a look-up through every conformance record).
    static func invalidPredicate(argc: Int = Int(CommandLine.argc),
                                 argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = CommandLine.unsafeArgv) -> String? {
        var index = 1
        while index < argc {
            guard let argument = argv[index] else { break }
            let length = strlen(argument)
            var value: UnsafeMutablePointer<CChar>?
            var valueIndex = index
            if length == 11, memcmp(argument, "--predicate", 11) == 0, index + 1 < argc {
                value = argv[index + 1]
                valueIndex = index + 1
            } else if length >= 12, memcmp(argument, "--predicate=", 12) == 0 {
                value = argument + 12
            }
            if let value, String(validatingCString: value) == nil {
                return "--predicate: the predicate is not valid UTF-8 (argument \(valueIndex)); a predicate is text, as in a --predicate-file"
            }
            index += 1
        }
        return nil
    }
}
