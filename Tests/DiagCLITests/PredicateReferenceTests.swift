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
        let blocks = try ReferenceBlock.all(in: ReferenceExample.document())
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
