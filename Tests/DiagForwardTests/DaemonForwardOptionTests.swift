import Foundation
import Testing
import TestSupport

/// Hostile `--forward` and `--config` values given to the built diagd.
@Suite struct DaemonForwardOptionTests {
    @Test func malformedForwardURLIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        let result = try run(BuiltProducts.path("diagd"), ["--store", directory.file("s").path, "--forward", "rfc5424+tcp://logs:99999"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: forward URL 'rfc5424+tcp://logs:99999': port '99999' is not a number from 1 to 65535; accepted: rfc5424+tcp://HOST:PORT"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("s").path), "nothing is created")
    }

    @Test func configFileErrorsNameTheLineAndColumn() throws {
        let directory = try TemporaryDirectory()
        let cases: [(String, String)] = [
            ("# forwards\nforward rfc5424+tcp://a:514\n\tforwad rfc5424+tcp://b:514\n", ":3:2: unknown setting 'forwad'; accepted: forward URL"),
            ("forward\n", ":1:1: 'forward' takes one URL, found 0 words"),
            ("forward a b\n", ":1:1: 'forward' takes one URL, found 2 words"),
            ("forward  rfc5424+tcp://a:514?facility=99 # local\n", ":1:10: forward URL 'rfc5424+tcp://a:514?facility=99': facility '99' is not 0…23"),
            ("forward rfc5424+tcp://a:514\nforward RFC5424+TCP://a:514/\n", "forward rfc5424+tcp://a:514 is given twice"),
        ]
        for (text, expected) in cases {
            let file = try directory.write("diagd.conf", text)
            let result = try run(BuiltProducts.path("diagd"), ["--store", directory.file("s").path, "--config", file])
            #expect(result.status == 64)
            #expect(result.stderr.contains(expected), "\(result.stderr)")
        }
        let missing = try run(BuiltProducts.path("diagd"), ["--store", directory.file("s").path, "--config", directory.file("none.conf").path])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("none.conf: cannot read the config file"))
        let binary = try directory.write("binary.conf", "")
        try Data([0x66, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: binary))
        let notText = try run(BuiltProducts.path("diagd"), ["--store", directory.file("s").path, "--config", binary])
        #expect(notText.stderr.contains("binary.conf: the config file is not UTF-8 text"))
    }

    @Test func damagedCursorStopsTheStartWithAClearError() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("store").path
        let cursor = try directory.write("store/forwarding/rfc5424_tcp___127.0.0.1_9.cursor.json", "{\"url\": \"x\", \"chunk\": -1}")
        let result = try run(BuiltProducts.path("diagd"), ["--store", store, "--socket", directory.file("d.sock").path, "--forward", "rfc5424+tcp://127.0.0.1:9"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(cursor): damaged forward cursor"), "\(result.stderr)")
        #expect(result.stderr.contains("remove the file to forward again"))
    }
}
