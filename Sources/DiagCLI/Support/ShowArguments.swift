import DiagCommandLine
import DiagQuery
import DiagStore
import Foundation

/// `--var NAME=VALUE`, repeatable: the values of `$NAME` in a predicate.
enum VariableArguments {
    static func parse(_ arguments: [String]) throws -> [String: String] {
        var variables: [String: String] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else {
                throw ValidationError("The value '\(argument)' is invalid for '--var <name=value>'; accepted: NAME=VALUE, like --var STORE=main")
            }
            let name = String(argument[..<equals])
            guard let first = name.first, first.isLetter || first == "_",
                  name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else {
                throw ValidationError("The variable name '\(name)' in '--var \(argument)' is invalid; accepted: letters, digits and _, not starting with a digit")
            }
            variables[name] = String(argument[argument.index(after: equals)...])
        }
        return variables
    }
}

/// `--predicate-file F`: the predicate's text, without `#` comment lines.
enum PredicateFile {
    static func read(_ path: String) throws -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RuntimeError("cannot read the predicate file \(path): \((error as NSError).localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError("\(path): the predicate file is not UTF-8 text")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
        let predicate = lines.joined(separator: "\n")
        guard !predicate.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw InputError("\(path): the predicate file holds no predicate (only comments or blank lines)")
        }
        return predicate
    }
}

/// The SOURCE arguments of a query, or the default store when there are none.
enum SourceArguments {
    /// The bundle reader queries use; DiagBundle provides it.
    static let bundleOpener: (any BundleOpener)? = BundleSourceOpener()

    /// The values of `$NAME` for a predicate over these sources: the identifiers every bundle's
    /// manifest records, overridden by `--var`. Two bundles that disagree on a name leave it to
    /// `--var` (an unbound variable is then an error that names it).
    static func variables(for sources: [QuerySource], overriding bound: [String: String]) throws -> [String: String] {
        var fromManifests: [String: String] = [:]
        var conflicting: Set<String> = []
        for case .bundle(let path) in sources {
            for (name, value) in try BundleSourceOpener().identifiers(ofBundle: path) {
                if let known = fromManifests[name], known != value { conflicting.insert(name) }
                fromManifests[name] = value
            }
        }
        for name in conflicting { fromManifests[name] = nil }
        return fromManifests.merging(bound) { _, given in given }
    }

    static func resolve(_ arguments: [String]) throws -> [QuerySource] {
        let resolver = SourceResolver(bundleOpener: bundleOpener)
        guard !arguments.isEmpty else {
            let store = StoreLocation.defaultStore()
            guard StoreLayout.hasInfo(store) else {
                throw RuntimeError("no log store at \(store.path) (the default store); pass a SOURCE, set DIAG_STORE, or create it with diagd or `diag import`")
            }
            return [.store(store)]
        }
        return try arguments.map { argument in
            do {
                return try resolver.resolve(argument)
            } catch let error as QueryError {
                throw error.isBadInput ? InputError(error.message) as any Error : RuntimeError(error.message)
            }
        }
    }
}
