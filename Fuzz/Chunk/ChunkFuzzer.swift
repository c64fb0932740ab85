// libFuzzer target for the SQLite layer of reading a bundle (issue 13): the bytes of a chunk file
// as a bundle's author wrote them → ForeignChunk.inspect (sqlite_schema checked before anything
// else, through Database.openUntrusted) → an old format copied forward into a fresh chunk, which
// must then pass the same check → the records read. A trap, an ASan report, a hang or a copy
// that fails the check is a finding; a refusal (StoreError) is the expected answer to most inputs.
import DiagStore
import Foundation

private let folder: String = {
    let path = NSTemporaryDirectory() + "/diag-chunk-fuzzer-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let chunk = folder + "/input.chunk.sqlite"
    let copy = folder + "/copy.chunk.sqlite"
    let bytes = count == 0 ? Data() : Data(bytes: start!, count: count)
    try? FileManager.default.removeItem(atPath: copy)
    guard (try? bytes.write(to: URL(fileURLWithPath: chunk))) != nil else { fatalError("cannot write \(chunk)") }
    guard let shape = try? ForeignChunk.inspect(path: chunk) else { return 0 }
    var readable = chunk
    if shape != .current {
        guard (try? ForeignChunk.copyForward(from: chunk, to: copy)) != nil else { return 0 }
        guard (try? ForeignChunk.inspect(path: copy)) == .current else { fatalError("a chunk copied forward fails the schema check") }
        readable = copy
    }
    read(readable)
    return 0
}

/// Every column of the records, as a reader of the store touches them.
private func read(_ path: String) {
    guard let database = try? Database.openUntrusted(path: path) else { return }
    _ = try? database.scalarInt("""
        SELECT count(*) + sum(length(eventMessage)) + sum(length(process)) + sum(length(metadata)) + sum(timestamp % 7)
          + sum(length(subsystem)) + sum(length(category)) + sum(length(formatString)) + sum(length(signpostScope))
        FROM records
        """)
    _ = try? database.scalarText("SELECT group_concat(eventMessage, '|') FROM (SELECT eventMessage FROM records ORDER BY timestamp, id LIMIT 20)")
}
