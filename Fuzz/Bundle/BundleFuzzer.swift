// libFuzzer target for reading a bundle (issue 13): the bytes of an archive as its author wrote
// them → BundleVerifier.verify (what `diag verify` runs) and BundleReader.open (what `diag show
// BUNDLE` runs: archive admission, manifest.json and Info.json under their bounds, the unpack
// into a private cache with small extraction limits, the chunks' schema check, older chunks
// copied forward) → the store opened for reading → its first records read.
//
// A trap, an ASan report or a hang is a finding; a refusal (BundleError, StoreError) is the
// expected answer to most inputs. These are findings too, checked after every input: a
// temporary `.unpack-`/`.verify-` folder left in the cache, anything written beside the cache,
// and a bundle that verify finds intact but open refuses as bad input. (Raw control characters
// in messages are not checked here: the CLI escapes every `Error:` line and verify problem as
// it prints them; Benchmarks/hostile-bundles.sh checks what reaches stderr.)
import DiagBundle
import DiagModel
import DiagStore
import Foundation

private let folder: URL = {
    let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("diag-bundle-fuzzer-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// Small bounds, so that an input cannot spend the run unpacking: 1 MiB a file, 4 MiB in all,
/// 512 entries (the product's are 16 GiB, 4 GiB and 200,000).
private let limits = ExtractionLimits(maximumEntrySize: 1 << 20, maximumTotalSize: 4 << 20, maximumEntryCount: 512, reserve: 0)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let archive = folder.appendingPathComponent("input.tar.gz")
    let cacheFolder = folder.appendingPathComponent("cache")
    try? FileManager.default.removeItem(at: cacheFolder)
    let bytes = count == 0 ? Data() : Data(bytes: start!, count: count)
    guard (try? bytes.write(to: archive)) != nil else { fatalError("cannot write \(archive.path)") }
    let cache = BundleCache(directory: cacheFolder, limits: limits)

    let intact = (try? BundleVerifier.verify(archive.path, cache: cache))?.isIntact == true
    checkNothingLeft(cacheFolder)
    do {
        let opened = try BundleReader.open(archive.path, cache: cache)
        try? readFirstRecords(opened.storeDirectory)
    } catch let error as BundleError where intact && error.exitCode == 65 {
        // verify must not call OK a bundle that show refuses (issue 13: the same checks).
        fatalError("verify found the bundle intact, open refused it: \(error.message)")
    } catch {}
    checkNothingLeft(cacheFolder)
    return 0
}

/// The first records, each decoded whole from its row, as `diag show` reads them.
private func readFirstRecords(_ store: URL) throws {
    guard FileManager.default.fileExists(atPath: store.appendingPathComponent("Info.json").path) else { return }
    let logStore = try LogStore.openForReading(at: store)
    defer { try? logStore.close() }
    let cursor = logStore.records(filter: StoreFilter(limit: 50))
    var length = 0
    while let record = try cursor.next() {
        length += record.eventMessage.utf8.count + (record.subsystem?.utf8.count ?? 0) + (record.process?.utf8.count ?? 0)
    }
    if length < 0 { fatalError("unreachable: keeps the reads") }
}

/// Fails when an unpack left its temporary folder, or anything was written beside the cache.
private func checkNothingLeft(_ cacheFolder: URL) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: cacheFolder.path)) ?? []
    if let leftover = names.first(where: { $0.hasPrefix(".unpack-") || $0.hasPrefix(".verify-") }) {
        fatalError("a temporary folder was left in the cache: \(leftover)")
    }
    let beside = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0 != "input.tar.gz" && $0 != "cache" }
    if !beside.isEmpty { fatalError("written beside the cache: \(beside)") }
}
