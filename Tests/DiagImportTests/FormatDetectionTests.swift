import DiagImport
import Testing

@Suite struct FormatDetectionTests {
    @Test(arguments: [
        (#"{"timestamp":1,"eventMessage":"m"}"#, ImportFormat.ndjson),
        ("\n\n  " + #"{"eventMessage":"m"}"#, .ndjson),
        ("\u{FEFF}" + #"{"eventMessage":"m"}"#, .ndjson),
        ("[{\n", .appleJSON),
        (" [\n", .appleJSON),
        (#"{"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"1","MESSAGE":"m"}"#, .journalJSON),
        ("Jul  1 09:00:55 host kernel[0]: message", .syslog),
        ("<13>Jul 11 09:00:55 host app: message", .syslog),
        ("2026-11-29T09:40:01.123456+01:00 host app[1]: message", .syslog),
        ("2026-11-29 09:40:01.123  1702  2395 D Tag: message", .logcat),
        ("03-17 16:13:38.811  1702  2395 D WindowManager: msg", .logcat),
        ("--------- beginning of main\n03-17 16:13:38.811  1702  2395 D WindowManager: msg", .logcat),
    ])
    func detectsFromTheFirstLine(text: String, format: ImportFormat) throws {
        #expect(try ImportFormat.detect(Array(text.utf8)) == format)
    }

    @Test func strayLinesBeforeTheFirstRecordDoNotHideTheFormat() throws {
        #expect(try ImportFormat.detect(Array("garbage\n{\"eventMessage\":\"m\"}\n".utf8)) == .ndjson)
        #expect(try ImportFormat.detect(Array("# exported\ncut line\nJul  1 09:00:55 host kernel[0]: message\n".utf8)) == .syslog)
        let tooMany = String(repeating: "noise\n", count: ImportFormat.unrecognisedLinesTolerated) + "{\"eventMessage\":\"m\"}\n"
        #expect(throws: ImportError.self) { try ImportFormat.detect(Array(tooMany.utf8)) }
    }

    @Test func blankInputHasNoFormat() throws {
        #expect(try ImportFormat.detect(Array(" \n\t\n".utf8)) == nil)
    }

    @Test func unknownFormatQuotesTheLineAndListsFormats() {
        #expect {
            _ = try ImportFormat.detect(Array("\nhello world\nmore".utf8), source: "notes.txt")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("unknown log format in notes.txt: the first line \"hello world\" is none of:\n  ndjson: NDJSON records")
                && ImportFormat.allCases.allSatisfy { text.contains("  \($0.name): ") }
        }
    }

    @Test func namesForTheFormatOption() {
        #expect(ImportFormat.allCases.map(\.name) == ["ndjson", "json", "syslog", "journal", "logcat"])
        #expect(ImportFormat(name: "SYSLOG") == .syslog)
        #expect(ImportFormat(name: "xml") == nil)
    }
}
