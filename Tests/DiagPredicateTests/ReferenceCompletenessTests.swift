import Foundation
import Testing

@testable import DiagPredicate

/// docs/PREDICATES.md names everything the parser knows: a key, reserved word or symbolic value
/// added to the code fails here until the reference documents it. (The examples of the page are
/// run through the built `diag` by DiagCLITests' PredicateReferenceTests.)
@Suite struct ReferenceCompletenessTests {
    static func reference(filePath: String = #filePath) throws -> String {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/PREDICATES.md"), encoding: .utf8)
    }

    @Test func everyKeyAndAliasIsDocumented() throws {
        let text = try Self.reference()
        for key in Field.byKey.keys.sorted() {
            let written = Keyword.isReserved(key) ? "`#\(key)`" : "`\(key)`"
            #expect(text.contains(written), "docs/PREDICATES.md does not name the key \(written)")
        }
    }

    @Test func everyReservedWordIsListed() throws {
        let text = try Self.reference()
        let list = try #require(text.components(separatedBy: "### 2.3").dropFirst().first?.components(separatedBy: "###").first)
        for keyword in Keyword.allCases {
            #expect(list.contains(keyword.rawValue), "§2.3 does not list the reserved word \(keyword.rawValue)")
        }
    }

    @Test func everySymbolicValueIsDocumented() throws {
        let text = try Self.reference().lowercased()
        for kind in [SymbolKind.messageType, .eventType, .signpostType, .signpostScope] {
            for word in kind.words.keys.sorted() {
                #expect(text.contains("`\(word)`"), "docs/PREDICATES.md does not name the \(kind) value \(word)")
            }
        }
    }

    @Test func theNestingLimitIsTheDocumentedOne() throws {
        let text = try Self.reference()
        #expect(text.contains("more than \(PredicateParser.maximumDepth) open levels are refused"))
        #expect(text.contains("more than \(PredicateParser.maximumDepth) levels of parentheses"))
    }
}
