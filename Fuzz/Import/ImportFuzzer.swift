// libFuzzer target for everything that reads bytes from outside in DiagModel and DiagImport:
// the JSON reader, both record decoders (which must agree), and LogFileReader in every format.
// A trap, an ASan report or a disagreement is a finding.
import DiagImport
import DiagModel
import Foundation

private let utc = TimeZone(identifier: "UTC")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = count == 0 ? [] : Array(UnsafeRawBufferPointer(start: start, count: count))
    checkJSON(bytes)
    readAsFile(bytes)
    return 0
}

private func checkJSON(_ bytes: [UInt8]) {
    let parsed = try? JSONReader.parse(bytes)
    let object = try? JSONReader.parseObject(bytes)
    if let object, parsed != .object(object) { fatalError("parse and parseObject disagree") }
    let viaBytes = Result { () throws(LogRecordJSONError) in try LogRecord(jsonBytes: bytes, defaultTimestamp: 0) }
    if let object {
        let viaDictionary = Result { () throws(LogRecordDecodingError) in try LogRecord(json: object, defaultTimestamp: 0) }
        switch (viaDictionary, viaBytes) {
        case (.success(let a), .success(let b)) where a == b: break
        case (.failure, .failure(.invalidRecord)): break
        default: fatalError("the dictionary and byte decoders disagree")
        }
        // What the writer writes, the reader reads back the same.
        var writer = JSONWriter()
        writer.append(.object(object))
        guard (try? JSONReader.parseObject(writer.bytes)) != nil else { fatalError("written JSON does not read back") }
    } else if case .success = viaBytes {
        fatalError("the byte decoder accepted what the reader refused")
    }
}

private func readAsFile(_ bytes: [UInt8]) {
    for format in [nil] + ImportFormat.allCases.map(Optional.some) {
        guard let reader = try? LogFileReader(bytes: bytes, name: "fuzz", options: ImportOptions(year: 2026, format: format, timeZone: utc, maxLineLength: 1 << 16)) else { continue }
        var records = 0
        var issues = 0
        do {
            try reader.forEach(record: { _ in records += 1 }, issue: { issue in
                issues += 1
                guard issue.line >= 1, issue.file == "fuzz" else { fatalError("issue without a place: \(issue)") }
            })
        } catch {
            fatalError("reading bytes cannot fail but did: \(error)")
        }
    }
}
