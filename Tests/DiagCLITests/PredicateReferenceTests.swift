import Foundation
import Testing
import TestSupport

/// docs/PREDICATES.md cannot drift from the parser: every example it labels is run through the
/// built `diag predicate check`/`explain`, and the output it shows must be what `diag` prints.
@Suite struct PredicateReferenceTests {
    @Test func acceptedExamplesAreAcceptedAndPrintTheirNormalisedForm() throws {
        let examples = try ReferenceExample.all(labelled: .accepted)
        #expect(examples.count >= 25, "docs/PREDICATES.md holds only \(examples.count) `predicate` blocks")
        for example in examples {
            let output = try diag(["predicate", "check"] + example.arguments + [example.predicate], environment: example.environment)
            #expect(output.status == 0, "line \(example.line): \(output.stderr)")
            #expect(output.stderr == "", "line \(example.line)")
            if let expected = example.expectedOutput {
                #expect(output.stdout == expected, "line \(example.line): diag predicate check prints something else")
            }
        }
    }

    @Test func refusedExamplesExit65WithTheDocumentedMessage() throws {
        let examples = try ReferenceExample.all(labelled: .refused)
        #expect(examples.count >= 50, "docs/PREDICATES.md holds only \(examples.count) `predicate-error` blocks")
        for example in examples {
            let output = try diag(["predicate", "check"] + example.arguments + [example.predicate], environment: example.environment)
            #expect(output.status == 65, "line \(example.line): accepted as \(output.stdout)")
            #expect(output.stdout == "", "line \(example.line)")
            #expect(output.stderr.hasPrefix("Error: ") && output.stderr.contains("^"), "line \(example.line): \(output.stderr)")
            if let expected = example.expectedOutput {
                #expect(output.stderr == expected, "line \(example.line): diag predicate check reports something else")
            }
        }
    }

    @Test func explainedExamplesPrintTheDocumentedPlan() throws {
        let examples = try ReferenceExample.all(labelled: .explained)
        #expect(examples.count >= 5, "docs/PREDICATES.md holds only \(examples.count) `predicate-explain` blocks")
        for example in examples {
            let output = try diag(["predicate", "explain"] + example.arguments + [example.predicate], environment: example.environment)
            #expect(output.status == 0, "line \(example.line): \(output.stderr)")
            #expect(example.expectedOutput != nil, "line \(example.line): a predicate-explain block needs its output block")
            if let expected = example.expectedOutput {
                #expect(output.stdout == expected, "line \(example.line): diag predicate explain prints something else")
            }
        }
    }

    /// A misspelt label (`predicat`) or an `output` block that follows nothing would leave an
    /// example unchecked without a word; other blocks are shell lines, transcripts and the grammar.
    @Test func everyExampleBlockIsOneTheTestReads() throws {
        let blocks = try FencedBlock.all(in: ReferenceExample.document())
        let unchecked: Set<String> = ["output", "console", "sh", ""]
        for (index, block) in blocks.enumerated() {
            #expect(ReferenceExample.Label(rawValue: block.label) != nil || unchecked.contains(block.label),
                    "line \(block.line): unknown label '\(block.label)'")
            if block.label == "output" {
                let previous = index > 0 ? blocks[index - 1] : nil
                #expect(block.followsPreviousDirectly && previous?.label.hasPrefix("predicate") == true,
                        "line \(block.line): an output block must follow a predicate block directly")
            }
        }
    }
}

/// A fenced block of the reference: its info string split into a label and arguments.
private struct FencedBlock {
    var label: String
    var arguments: [String]
    var body: String
    /// 1-based line of the opening fence.
    var line: Int
    /// Only blank lines separate it from the block before it.
    var followsPreviousDirectly: Bool

    static func all(in text: String) throws -> [FencedBlock] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [FencedBlock] = []
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
            blocks.append(FencedBlock(
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
private struct ReferenceExample {
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
        let blocks = try FencedBlock.all(in: document())
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

private struct ReferenceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
