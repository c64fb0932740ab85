import Foundation

/// A fenced block of the reference: its info string split into a label and arguments.
struct ReferenceBlock {
    var label: String
    var arguments: [String]
    var body: String
    /// 1-based line of the opening fence.
    var line: Int
    /// Only blank lines separate it from the block before it.
    var followsPreviousDirectly: Bool

    static func all(in text: String) throws -> [ReferenceBlock] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [ReferenceBlock] = []
        var previousClosing: Int?
        var index = 0
        while index < lines.count {
            guard lines[index].hasPrefix("```") else {
                index += 1
                continue
            }
            let words = lines[index].dropFirst(3).split(separator: " ").map(String.init)
            guard let closing = lines[(index + 1)...].firstIndex(of: "```") else {
                throw ReferenceError("docs/PREDICATES.md:\(index + 1): a fenced block is not closed")
            }
            let direct = previousClosing.map { lines[($0 + 1)..<index].allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } } ?? false
            blocks.append(ReferenceBlock(
                label: words.first ?? "", arguments: Array(words.dropFirst()),
                body: lines[(index + 1)..<closing].joined(separator: "\n"),
                line: index + 1, followsPreviousDirectly: direct))
            previousClosing = closing
            index = closing + 1
        }
        return blocks
    }
}

/// One labelled example of docs/PREDICATES.md and the output shown right after it, if any.
struct ReferenceExample {
    enum Label: String {
        case accepted = "predicate", refused = "predicate-error", explained = "predicate-explain"
    }

    var predicate: String
    /// The words after the label: the leading `NAME=VALUE` ones are the command's environment
    /// (beside `diag()`'s TZ=UTC), the others its arguments before the predicate.
    var environment: [String: String]
    var arguments: [String]
    var line: Int
    /// What the command prints (standard output, or standard error for an error), with its final line break.
    var expectedOutput: String?

    static func document(filePath: String = #filePath) throws -> String {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/PREDICATES.md"), encoding: .utf8)
    }

    static func all(labelled label: Label) throws -> [ReferenceExample] {
        let blocks = try ReferenceBlock.all(in: document())
        return blocks.indices.filter { blocks[$0].label == label.rawValue }.map { index in
            let block = blocks[index]
            let next = index + 1 < blocks.count ? blocks[index + 1] : nil
            let output = next.flatMap { $0.label == "output" && $0.followsPreviousDirectly ? $0.body + "\n" : nil }
            let settings = block.arguments.prefix { !$0.hasPrefix("-") && $0.contains("=") }
            let environment = Dictionary(settings.map { ($0.prefix { $0 != "=" }.description, $0.drop { $0 != "=" }.dropFirst().description) }) { $1 }
            return ReferenceExample(
                predicate: block.body, environment: environment, arguments: Array(block.arguments.dropFirst(settings.count)),
                line: block.line, expectedOutput: output)
        }
    }
}

struct ReferenceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
