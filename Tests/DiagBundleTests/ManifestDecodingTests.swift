@testable import DiagBundle
import Foundation
import Testing

/// manifest.json is decoded through ManifestDocument (JSONDecoder) instead of JSONSerialization:
/// the same leniency for optional fields and the same refusals, in a fraction of the memory.
struct ManifestDecodingTests {
    static let sha = String(repeating: "ab", count: 32)
    static let required = #""formatVersion": 1, "kind": "collect", "toolVersion": "t", "host": "h", "kernel": "k", "createdNanoseconds": 5"#

    func manifest(_ json: String) throws -> BundleManifest {
        try BundleManifest(jsonData: Data(json.utf8), source: "diagnose_x/manifest.json")
    }

    func refusal(_ json: String) -> String {
        do {
            _ = try manifest(json)
            return "accepted"
        } catch let error as BundleError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func optionalFieldsOfTheWrongTypeAreLeftOutAndIntegersMayBeWrittenAsDecimals() throws {
        let read = try manifest("""
            {\(Self.required), "title": 7, "redacted": "yes", "identifiers": {"a": 1}, "timeZone": "Europe/Paris",
             "timeZoneOffsetSeconds": 3600.0, "window": {"startNanoseconds": 10, "endNanoseconds": "x"},
             "recordCounts": {"total": 3, "Error": "many", "Fault": 2.0},
             "stores": [{"name": "Model", "snapshot": "stores/Model/Model.sqlite"}, {"name": "no snapshot"}],
             "files": [{"path": "report.html", "size": 3.0, "sha256": "\(Self.sha.uppercased())"}]}
            """)
        #expect(read.title == nil)
        #expect(read.redacted == false)
        #expect(read.identifiers.isEmpty)
        #expect(read.timeZone == "Europe/Paris" && read.timeZoneOffsetSeconds == 3600)
        #expect(read.windowStart == 10 && read.windowEnd == nil)
        #expect(read.recordCounts == ["total": 3, "Fault": 2])
        #expect(read.stores.map(\.name) == ["Model"] && read.stores[0].sourcePath == "")
        #expect(read.files == [BundleFileDigest(path: "report.html", size: 3, sha256: Self.sha)])
    }

    @Test func whatIsWrongIsNamed() {
        let source = "diagnose_x/manifest.json: "
        #expect(refusal("[1, 2]") == source + "not a JSON object")
        #expect(refusal("{\"formatVersion\": ") .hasPrefix(source + "not valid JSON ("))
        #expect(refusal(String(repeating: "[", count: 100_000)).hasPrefix(source + "not valid JSON ("))
        #expect(refusal("{\"formatVersion\": \"1\"}") == source + "'formatVersion' is missing or not a number")
        #expect(refusal("{\"formatVersion\": 99}").hasPrefix(source + "format version 99 is not supported"))
        #expect(refusal("{\"formatVersion\": 1}") == source + "'createdNanoseconds' is missing or not a number")
        #expect(refusal("{\"formatVersion\": 1, \"createdNanoseconds\": 1, \"kind\": 3}") == source + "'kind' is missing or not a string")
        #expect(refusal("{\(Self.required)}") == source + "'files' is missing or not a list")
        #expect(refusal("{\(Self.required), \"files\": [\"report.html\"]}") == source + "'files' is missing or not a list")
        #expect(refusal("{\(Self.required), \"files\": [{\"path\": \"a\", \"size\": 1, \"sha256\": \"0\"}]}")
            == source + "files[0] needs a 'path', a 'size' and a 64-digit hex 'sha256'")
        #expect(refusal("{\(Self.required), \"files\": [{\"path\": \"a\", \"size\": 1.5, \"sha256\": \"\(Self.sha)\"}]}")
            == source + "files[0] needs a 'path', a 'size' and a 64-digit hex 'sha256'")
    }
}
