// Figures for the JSON reader, the importers and the generator, each beside its reference, in
// one run. Built by Benchmarks/import.sh with swiftc -O together with the DiagModel, DiagImport
// and DiagGenerator sources (one module, so no package product is needed).
import Foundation

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func row(_ name: String, _ count: Int, _ time: Double, reference: Double? = nil) -> Double {
    let rate = Double(count) / time
    let ratio = reference.map { String(format: "  %.2fx the reference", rate / $0) } ?? ""
    let label = name.padding(toLength: 44, withPad: " ", startingAt: 0)
    print(label + String(format: "%10d records %8.3f s %12.0f records/s", count, time, rate) + ratio)
    return rate
}

/// Flat records of 8–12 fields, as clients send them to diagd.
func flatRecords(_ count: Int) -> [[UInt8]] {
    var generator = RecordGenerator(GeneratorOptions(count: count, seed: 9))
    var lines: [[UInt8]] = []
    while var record = generator.next() {
        record.metadata = nil
        record.processImagePath = nil
        record.senderImagePath = nil
        record.formatString = nil
        var writer = JSONWriter()
        record.writeJSON(to: &writer)
        lines.append(writer.bytes)
    }
    return lines
}

func benchJSON(_ count: Int) throws {
    let lines = flatRecords(count)
    print("JSON decoding of \(count) flat records (\(lines.map(\.count).reduce(0, +) / count) bytes each), one core")
    let datas = lines.map { Data($0) }
    var sink = 0
    let foundation = row("Foundation JSONSerialization", count, try seconds {
        for data in datas { sink &+= (try JSONSerialization.jsonObject(with: data) as! [String: Any]).count }
    })
    _ = row("JSONReader.parseObject", count, try seconds {
        for line in lines { sink &+= try JSONReader.parseObject(line).count }
    }, reference: foundation)
    _ = row("LogRecord(jsonBytes:)  (diagd's path)", count, try seconds {
        for line in lines { sink &+= Int(try LogRecord(jsonBytes: line).timestamp & 1) }
    }, reference: foundation)
    if sink == 42 { print("") }
}

func benchSyslog(_ path: String, copies: Int) throws {
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    let big = NSTemporaryDirectory() + "import-bench-\(getpid()).log"
    defer { unlink(big) }
    var data = Data()
    for _ in 0..<copies {
        data.append(original)
        if original.last != 0x0A { data.append(0x0A) }
    }
    try data.write(to: URL(fileURLWithPath: big))
    let lines = data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    print("Importing \(lines) syslog lines (\(data.count >> 20) MiB, \(URL(fileURLWithPath: path).lastPathComponent) x \(copies))")
    var count = 0
    let split = row("reference: split lines with Foundation", lines, try seconds {
        let text = try String(contentsOfFile: big, encoding: .utf8)
        text.enumerateLines { _, _ in count += 1 }
    })
    var records = 0
    _ = row("LogFileReader (syslog → LogRecord)", lines, try seconds {
        let reader = try LogFileReader(path: big, options: ImportOptions(year: 2017))
        try reader.forEach(record: { _ in records += 1 }, issue: { print($0); exit(1) })
    }, reference: split)
    guard records == lines else { print("records \(records) != lines \(lines)"); exit(1) }
}

func benchGenerate(_ count: Int) throws {
    print("diag generate of \(count) records to /dev/null (target: well under 60 s for 10 million)")
    let output = try NDJSONWriter(path: "/dev/null")
    let time = try seconds { try RecordGenerator.write(GeneratorOptions(count: count, seed: 42), to: output) }
    try output.close()
    let rate = row("RecordGenerator + NDJSONWriter", count, time)
    print(String(format: "  10 million records would take %.1f s: %.1fx faster than the 60 s bound", 1e7 / rate, 60 / (1e7 / rate)))
}

let arguments = CommandLine.arguments
try benchJSON(Int(arguments.count > 1 ? arguments[1] : "1000000")!)
print("")
if arguments.count > 3 { try benchSyslog(arguments[3], copies: 250); print("") }
try benchGenerate(Int(arguments.count > 2 ? arguments[2] : "10000000")!)
