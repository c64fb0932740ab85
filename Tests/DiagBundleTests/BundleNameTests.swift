import DiagStore
import Foundation
import Testing
import TestSupport
@testable import DiagBundle

/// Bundles named by the tool (no `--output`, or a folder) never collide: two collects in the
/// same second (a repro and a good run in one script, as `make demo` does) got the same name,
/// and the second was refused with "already exists". A file named by `--output` is still never
/// replaced.
@Suite struct BundleNameTests {
    private func request(output: String?) -> BundleRequest {
        var request = BundleRequest(kind: .collect, storeDirectory: URL(fileURLWithPath: "/nonexistent"), window: StoreWindow(),
                                    toolVersion: "test", created: 1_795_945_200_000_000_000)
        request.output = output
        return request
    }

    @Test func aSecondBundleOfTheSameSecondGetsANumber() throws {
        let folder = try TemporaryDirectory("bundle-names")
        let first = request(output: folder.path).outputPath(host: "vm")
        #expect(first.path.hasSuffix("_vm.tar.gz") && first.top.hasSuffix("_vm"))
        #expect(FileManager.default.createFile(atPath: first.path, contents: Data()))
        let second = request(output: folder.path + "/").outputPath(host: "vm")
        #expect(second.path == first.path.replacingOccurrences(of: "_vm.tar.gz", with: "_vm-2.tar.gz"))
        #expect(second.top == first.top + "-2")
        #expect(FileManager.default.createFile(atPath: second.path, contents: Data()))
        #expect(request(output: folder.path).outputPath(host: "vm").top == first.top + "-3")
        // A file named by --output is the caller's: kept as given, and the collector refuses it.
        let named = folder.file("mine.tar.gz").path
        #expect(FileManager.default.createFile(atPath: named, contents: Data()))
        #expect(request(output: named).outputPath(host: "vm").path == named)
        #expect(throws: BundleError.self) { try BundleCollector(request: request(output: named)).run() }
    }
}
