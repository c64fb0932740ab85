import Foundation
import Testing
import TestSupport

/// Messages say what is wrong in the user's words (issue 13, item 11).
struct StoreArgumentMessageTests {
    @Test func diagdWithAFileAsItsStoreSaysSo() throws {
        let folder = try TemporaryDirectory("diag-store-arg")
        let file = try folder.write("not-a-store", "text\n")
        let result = try run(BuiltProducts.path("diagd"), ["--store", file, "--socket", folder.file("s.sock").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--store \(file) is a file; the store is a directory"), "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test func deeplyNestedInfoJSONNamesTheFileAndTheCause() throws {
        let folder = try TemporaryDirectory("diag-store-arg")
        try folder.write("store/Info.json", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
        let result = try run(BuiltProducts.path("diag"), ["show", folder.file("store").path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("Info.json: Info.json is not"), "\(result.stderr)")
        #expect(!result.stderr.contains("isn’t in the correct format") && !result.stderr.contains("isn't in the correct format"))
    }
}
