// The log store's benchmark: built by Benchmarks/store.sh in release, outside the package.
import DiagModel
import DiagStore
import Foundation

let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 1_000_000
let work = URL(fileURLWithPath: CommandLine.arguments.dropFirst(2).first ?? NSTemporaryDirectory())
    .appendingPathComponent("store-bench-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

// Records like the sync system's: four processes, a few senders and categories, varied messages.
let processes = ["syncd", "schedulerd", "transportd", "notifierd"]
let words = ["fetch", "upload", "merge", "conflict", "token", "retry", "socket", "record", "zone", "batch", "push", "schedule"]
var records: [LogRecord] = []
records.reserveCapacity(count)
var seed: UInt64 = 42
@MainActor func random(_ bound: Int) -> Int {
    seed = seed &* 6364136223846793005 &+ 1442695040888963407
    return Int((seed >> 33) % UInt64(bound))
}
let base: Int64 = 1_764_409_201_000_000_000
for index in 0..<count {
    let process = processes[index % 4]
    var message = "\(words[random(12)]) \(words[random(12)]) id=\(random(1_000_000)) for zone \(words[random(12)])-\(random(100))"
    if index % 100_000 == 77 { message += " RareNeedleXQ" }
    records.append(LogRecord(
        timestamp: base + Int64(index) * 1_000_000, messageType: [.default, .info, .debug, .error][random(4)],
        process: process, processID: Int64(1000 + index % 4), processImagePath: "/usr/libexec/\(process)", userID: 501,
        sender: "\(process.dropLast())Core", subsystem: "com.example.\(process)", category: ["store", "net", "ui"][random(3)],
        threadID: Int64(random(64)), activityIdentifier: Int64(random(10_000)),
        eventMessage: message, formatString: "%s %s id=%d for zone %s",
        metadata: index % 10 == 0 ? ["storeIdentifier": .string("S\(random(10))"), "attempt": .int(Int64(random(5)))] : nil,
        receiptTime: base + Int64(index) * 1_000_000 + 50))
}
let batches = stride(from: 0, to: count, by: 10_000).map { records[$0..<min($0 + 10_000, count)] }

// 1. Append through LogStore (sealing off the path, as diagd does).
let store = try LogStore.open(at: work.appendingPathComponent("s.logarchive"), create: true, options: .init(sealOnRotation: false))
let appendSeconds = try seconds { for batch in batches { try store.append(batch) } }
try store.close()
let sealSeconds = try seconds { try store.sealPendingChunks() }

// 2. The reference: sqlite3's .import of the same rows as CSV into the same table.
let csvURL = work.appendingPathComponent("records.csv")
var csv = [UInt8]()
@MainActor func field(_ text: String?) {
    guard let text else { return }
    csv.append(UInt8(ascii: "\""))
    for byte in text.utf8 { if byte == UInt8(ascii: "\"") { csv.append(byte) }; csv.append(byte) }
    csv.append(UInt8(ascii: "\""))
}
func metadataText(_ metadata: [String: JSONValue]) -> String {
    var writer = JSONWriter()
    writer.append(.object(metadata))
    return String(decoding: writer.bytes, as: UTF8.self)
}
for record in records {
    let numbers: [Int64?] = [record.timestamp, record.receiptTime, Int64(record.messageType.rawValue), Int64(record.eventType.rawValue)]
    csv.append(contentsOf: numbers.map { $0.map(String.init) ?? "" }.joined(separator: ",").utf8)
    for text in [record.process, record.processID.map(String.init), record.processImagePath, record.userID.map(String.init),
                          record.sender, nil, record.subsystem, record.category, record.threadID.map(String.init),
                          record.activityIdentifier.map(String.init), nil, nil, record.eventMessage, record.formatString,
                          nil, nil, nil, record.metadata.map(metadataText)] {
        csv.append(UInt8(ascii: ","))
        field(text)
    }
    csv.append(0x0A)
}
try Data(csv).write(to: csvURL)
let referenceDB = work.appendingPathComponent("reference.sqlite").path
// The same columns without `id` (SQLite's implicit rowid plays its part), so .import needs no trigger.
let script = """
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    CREATE TABLE records (timestamp INTEGER NOT NULL, receiptTime INTEGER, messageType INTEGER NOT NULL, eventType INTEGER NOT NULL, process TEXT, processID INTEGER, processImagePath TEXT, userID INTEGER, sender TEXT, senderImagePath TEXT, subsystem TEXT, category TEXT, threadID INTEGER, activityIdentifier INTEGER, parentActivityIdentifier INTEGER, traceID INTEGER, eventMessage TEXT NOT NULL, formatString TEXT, signpostID INTEGER, signpostName TEXT, signpostType TEXT, metadata TEXT);
    """
try Database(path: referenceDB).execute(script)
let importSeconds = try seconds {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [referenceDB, ".mode csv", ".import \(csvURL.path) records"]
    try process.run()
    process.waitUntilExit()
}
let imported = try Database(path: referenceDB).scalarInt("SELECT count(*) FROM records") ?? 0

// 3. The message search index: build time, growth, a rare needle against a LIKE scan.
let sizeBefore = store.info.byteCount
let indexSeconds = try seconds { try store.buildSearchIndexes() }
let sizeAfter = try LogStore.open(at: store.url).info.byteCount
let reader = try LogStore.open(at: store.url, options: .readOnly)
var hits = 0
let searchSeconds = try seconds {
    let cursor = reader.records(filter: StoreFilter(messageSearch: ["rareneedlexq"]))
    while let record = try cursor.next() { if record.eventMessage.lowercased().contains("rareneedlexq") { hits += 1 } }
}
var likeHits: Int64 = 0
let likeSeconds = try seconds {
    for chunk in reader.info.chunks {
        let database = try Database(path: reader.url.appendingPathComponent("Persist/\(chunk.file)").path, options: .init(readOnly: true))
        likeHits += try database.scalarInt("SELECT count(*) FROM records WHERE eventMessage LIKE '%RareNeedleXQ%'") ?? 0
    }
}
var scanned = 0
let readSeconds = try seconds {
    let cursor = reader.records()
    while try cursor.next() != nil { scanned += 1 }
}

func rate(_ rows: Int, _ time: Double) -> String { String(format: "%8.0f rows/s", Double(rows) / time) }
print("records: \(count), chunks: \(store.info.chunks.count), store bytes: \(sizeBefore)")
print("LogStore.append (10k batches)   \(rate(count, appendSeconds))   \(String(format: "%.2f s", appendSeconds))")
print("sqlite3 .import CSV (reference) \(rate(Int(imported), importSeconds))   \(String(format: "%.2f s", importSeconds))")
print(String(format: "ratio append/import time: %.2fx (target <= 2x)", appendSeconds / importSeconds))
print("seal (6 indexes + ANALYZE)      \(rate(count, sealSeconds))   \(String(format: "%.2f s", sealSeconds))")
print("read all in time order          \(rate(scanned, readSeconds))   \(String(format: "%.2f s", readSeconds))")
print("search index build              \(rate(count, indexSeconds))   \(String(format: "%.2f s", indexSeconds)), growth \(String(format: "%.2fx", Double(sizeAfter) / Double(sizeBefore)))")
print(String(format: "rare needle: index %.1f ms (%d hits) vs LIKE scan %.1f ms (%d hits): %.3fx", searchSeconds * 1000, hits, likeSeconds * 1000, likeHits, searchSeconds / likeSeconds))
