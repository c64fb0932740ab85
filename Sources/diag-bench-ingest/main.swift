import Foundation

/// diag-bench-ingest: the two sides of Benchmarks/ingest.sh.
///
///   diag-bench-ingest bare --records N --database PATH [--batch 5000]
///   diag-bench-ingest store --records N --store DIR [--batch 18000]
///   diag-bench-ingest load --records N --socket PATH [--sync-every 5000] [--seed K] [--start-at T]
///   diag-bench-ingest render --records N --output PATH [--seed K] [--format rfc3164]
///
///   diag-bench-ingest log --records N --socket PATH --tag T [--activity ID]
///   diag-bench-ingest datagrams --input FILE --socket PATH    (each line one datagram)
///
/// `log` logs through DiagClient's `Logger` (for tests of several real client processes).
/// The others each print one line: `<mode> records=N seconds=S rate=R finished=T` (T in Unix
/// seconds; `bare` adds `cpu=C`, the CPU seconds of the insert loop alone, `store` the CPU
/// seconds of the appending thread: `StoreAppendLoop`).
/// `--start-at` (Unix seconds) lets several load clients, their records ready, start together.
func value(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("diag-bench-ingest: error: \(message)\n".utf8))
    exit(64)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "datagrams" {
    guard let input = value("--input", in: arguments), let socket = value("--socket", in: arguments) else {
        fail("datagrams needs --input FILE --socket PATH")
    }
    let start = Date()
    do {
        let sent = try DatagramSender.run(lines: input, socket: socket)
        print("datagrams sent=\(sent) seconds=\(String(format: "%.3f", Date().timeIntervalSince(start)))")
    } catch {
        FileHandle.standardError.write(Data("diag-bench-ingest: error: datagrams to \(socket): \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
guard let mode = arguments.first, ["bare", "store", "load", "log", "render"].contains(mode) else {
    fail("usage: diag-bench-ingest bare --records N --database PATH [--batch 5000] | store --records N --store DIR [--batch 18000] | load --records N --socket PATH [--sync-every 5000] [--seed K] | log --records N --socket PATH --tag T | render --records N --output PATH | datagrams --input FILE --socket PATH")
}
guard let count = value("--records", in: arguments).flatMap(Int.init), count > 0 else { fail("--records N (a positive integer) is required") }
let seed = value("--seed", in: arguments).flatMap(Int.init) ?? 1
if mode == "log" {
    guard let socket = value("--socket", in: arguments) else { fail("log needs --socket PATH") }
    do {
        try LoggingClient.run(
            count: count, socketPath: socket, tag: value("--tag", in: arguments) ?? "bench",
            activity: value("--activity", in: arguments).flatMap(Int64.init))
    } catch {
        FileHandle.standardError.write(Data("diag-bench-ingest: error: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
let records = BenchRecords.make(count: count, seed: seed)
if mode == "render" {
    guard let output = value("--output", in: arguments) else { fail("render needs --output PATH") }
    let bsd = value("--format", in: arguments) == "rfc3164"
    do { try RFC5424Render.write(records, seed: seed, to: output, bsd: bsd) } catch {
        FileHandle.standardError.write(Data("diag-bench-ingest: error: cannot write \(output): \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
do {
    let seconds: Double
    var cpu = ""
    if mode == "bare" {
        guard let path = value("--database", in: arguments) else { fail("bare needs --database PATH") }
        let result = try BareInsertLoop.run(records: records, path: path, batch: value("--batch", in: arguments).flatMap(Int.init) ?? 5000)
        seconds = result.seconds
        cpu = " cpu=\(String(format: "%.3f", result.cpu))"
    } else if mode == "store" {
        guard let folder = value("--store", in: arguments) else { fail("store needs --store DIR") }
        let result = try StoreAppendLoop.run(records: records, folder: folder, batch: value("--batch", in: arguments).flatMap(Int.init) ?? 18_000)
        seconds = result.seconds
        cpu = " cpu=\(String(format: "%.3f", result.cpu))"
    } else {
        guard let socket = value("--socket", in: arguments) else { fail("load needs --socket PATH") }
        let lines = LoadClient.lines(records)
        if let startAt = value("--start-at", in: arguments).flatMap(Double.init) {
            let wait = startAt - Date().timeIntervalSince1970
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        }
        seconds = try LoadClient.run(lines: lines, socketPath: socket, syncEvery: value("--sync-every", in: arguments).flatMap(Int.init) ?? 5000)
    }
    print("\(mode) records=\(count) seconds=\(String(format: "%.3f", seconds)) rate=\(Int(Double(count) / seconds)) finished=\(String(format: "%.3f", Date().timeIntervalSince1970))\(cpu)")
} catch {
    FileHandle.standardError.write(Data("diag-bench-ingest: error: \(error)\n".utf8))
    exit(1)
}
