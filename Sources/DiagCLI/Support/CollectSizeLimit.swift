import DiagBundle
import DiagCommandLine
import DiagModel
import DiagProtocol
import Foundation

/// `diag collect --size SIZE`, as `log collect --size`: the bundle file stays within SIZE and
/// keeps the newest records that fit. The records are first weighed as stored (before the
/// archive compresses them), which leaves room for the summaries and report; should the bundle
/// still come out larger, it is collected again with a budget shrunk in proportion.
enum CollectSizeLimit {
    static let attempts = 4

    static func bytes(_ text: String) throws -> Int64 {
        guard let bytes = QuantityParsing.byteCount(text) else {
            throw ValidationError("--size '\(text)' is not a size; write a number of bytes with an optional K, M, G or T (e.g. 20M)")
        }
        return bytes
    }

    static func collect(_ request: BundleRequest, limit: Int64) throws {
        var budget = limit
        var lastSize: Int64 = 0
        for _ in 0..<attempts {
            var bounded = request
            let plan: BundleSizeLimit.LeftOut?
            do {
                plan = try BundleSizeLimit(store: request.storeDirectory, window: request.window).plan(budget: budget, limit: limit)
            } catch let error as BundleError {
                throw RuntimeError(error.message)
            }
            if let plan {
                bounded.window.start = plan.keptFrom
                bounded.leftOut = plan
            }
            let path = try run(bounded)
            lastSize = fileSize(path)
            if lastSize <= limit {
                if let plan {
                    StandardStream.error.write("diag collect: --size left out \(plan.leftOutRecords) older record\(plan.leftOutRecords == 1 ? "" : "s") (before \(Timestamp.formatISO8601(nanoseconds: plan.keptFrom, fractionDigits: 9))) and kept the newest \(plan.keptRecords); the bundle's \(BundleLayout.leftOut) says so\n")
                }
                StandardStream.output.write("\(path)\n")
                return
            }
            try? FileManager.default.removeItem(atPath: path)
            guard plan == nil || plan!.keptRecords > 0 else { break }
            // Shrink the records' share in proportion to how far over the bundle came out.
            budget = max(0, Int64(Double(budget) * Double(limit) / Double(lastSize) * 0.9))
        }
        throw RuntimeError("--size \(limit) is too small: the bundle took \(lastSize) bytes at its smallest (its summaries, report and --store-file snapshots count too); give a larger --size")
    }

    private static func run(_ request: BundleRequest) throws -> String {
        do {
            return try BundleCollector(request: request).run().path
        } catch let error as BundleError {
            if error.exitCode == 65 { throw InputError(error.message) }
            throw RuntimeError(error.message)
        }
    }

    private static func fileSize(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : Int64.max
    }
}
