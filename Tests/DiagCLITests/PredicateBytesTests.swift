import Foundation
import Testing
import TestSupport

/// A predicate that is not valid UTF-8 is bad input wherever it comes from (issue 13, item 11).
struct PredicateBytesTests {
    @Test(arguments: [#"--predicate "$(printf 'process == "\377"')""#, #""--predicate=$(printf 'process == "\377"')""#])
    func invalidUTF8InPredicateIsRefusedLikeInAFile(form: String) throws {
        let folder = try TemporaryDirectory("diag-bytes")
        let file = try folder.write("a.log", "Nov 29 09:40:01 host transport[42]: hello\n")
        // Through the shell: Foundation's Process passes only valid UTF-8 arguments.
        let shown = try run("/bin/sh", ["-c", "\"$0\" show \(form) \"$1\"", BuiltProducts.path("diag"), file])
        #expect(shown.status == 65, "\(shown.stderr)")
        #expect(shown.stderr.contains("not valid UTF-8"), "\(shown.stderr)")
        let predicateFile = folder.file("p.predicate")
        try Data([0x70, 0x72, 0x6F, 0x63, 0x65, 0x73, 0x73, 0x20, 0x3D, 0x3D, 0x20, 0x22, 0xFF, 0x22]).write(to: predicateFile)
        let fromFile = try run(BuiltProducts.path("diag"), ["show", "--predicate-file", predicateFile.path, file])
        #expect(fromFile.status == 65, "\(fromFile.stderr)")
        let valid = try run("/bin/sh", ["-c", "\"$0\" show --predicate 'process == \"transport\"' \"$1\"", BuiltProducts.path("diag"), file])
        #expect(valid.status == 0, "\(valid.stderr)")
    }
}
