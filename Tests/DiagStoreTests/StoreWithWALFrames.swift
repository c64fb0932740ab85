import DiagModel
import Foundation
import TestSupport
@testable import DiagStore

/// A store copied to `url` while its writer still had its WAL, as a copy of a live store (or of
/// one whose writer was killed) has it: `Info.json`, the chunk and its `-wal` with frames, no
/// `-shm`. Returns the chunk's path there.
func copyStoreWithWALFrames(_ records: [LogRecord], to url: URL) throws -> String {
    let scratch = try TemporaryDirectory()
    let store = try LogStore.open(at: scratch.file("s.logarchive"), create: true)
    try store.append(records)
    let file = store.info.chunks[0].file
    let source = store.chunkPath(file)
    try FileManager.default.createDirectory(at: url.appendingPathComponent("Persist"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: scratch.file("s.logarchive/Info.json"), to: url.appendingPathComponent("Info.json"))
    let chunk = url.path + "/Persist/" + file
    for suffix in ["", "-wal"] {
        try FileManager.default.copyItem(atPath: source + suffix, toPath: chunk + suffix)
    }
    try store.close()
    return chunk
}
