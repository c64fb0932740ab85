import Foundation
import Testing
import TestSupport

/// The planner contract end to end: the same predicate over a store (SQL, search index, residual)
/// and over the file it was imported from (Swift alone) shows the same records.
@Suite(.serialized) struct StoreAndFileAgreementTests {
    static let predicates = [
        "process == 'kernel'",
        "process ==[c] 'KERNEL' AND eventMessage CONTAINS 'Wake'",
        "eventMessage CONTAINS[c] 'failed password' OR processID == 24200",
        "eventMessage CONTAINS[cd] 'AUTHENTICATION'",
        "processID > 20000 AND NOT (process BEGINSWITH 'ss')",
        "eventMessage LIKE '*Invalid user * from *'",
        "eventMessage MATCHES '.*port [0-9]{5} ssh2'",
        "process IN {'sshd', 'kernel', 'QQ'} AND eventMessage ENDSWITH 'ssh2'",
        "messageType == default AND timestamp >= '2026-12-10 09:00:00'",
        "eventMessage CONTAINS 'zz'",
        "TRUEPREDICATE",
    ]

    @Test func storeAndFileShowTheSameRecords() throws {
        let folder = try TemporaryDirectory("diag-agree")
        let store = folder.file("store").path
        let mac = try #require(BuiltProducts.corpusFile("Mac_2k.log"))
        let ssh = try #require(BuiltProducts.corpusFile("OpenSSH_2k.log"))
        #expect(try diag(["import", "--store", store, "--year", "2026", mac, ssh]).status == 0)
        func lines(_ predicate: String, _ sources: [String]) throws -> [String] {
            let output = try diag(["show", "--style", "ndjson", "--info", "--debug", "--year", "2026", "--predicate", predicate] + sources)
            #expect(output.status == 0, "\(predicate): \(output.stderr)")
            return output.stdout.split(separator: "\n").map(String.init).sorted()
        }
        var expected: [String: [String]] = [:]
        for predicate in Self.predicates {
            let fromFiles = try lines(predicate, [mac, ssh])
            #expect(try lines(predicate, [store]) == fromFiles, "\(predicate)")
            expected[predicate] = fromFiles
        }
        #expect(expected["TRUEPREDICATE"]?.count == 4000)
        #expect(expected["process == 'kernel'"]?.count == 775)
        // With message search indexes the answers stay the same.
        #expect(try diag(["index", "--store", store]).status == 0)
        for predicate in Self.predicates {
            #expect(try lines(predicate, [store]) == expected[predicate], "\(predicate) with the index")
        }
        // One store in ndjson goes out straight from the columns; with a second source (an empty
        // file) records are decoded and merged: the bytes and the order must be the same.
        let empty = try folder.write("empty.ndjson", "")
        for predicate in Self.predicates + ["eventMessage MATCHES[c] '.*PORT \\d+.*'"] {
            for zone in ["UTC", "+0530", "America/New_York"] {
                let arguments = ["show", "--style", "ndjson", "--info", "--debug", "--timezone", zone, "--predicate", predicate]
                let direct = try diag(arguments + [store])
                let merged = try diag(arguments + [store, empty])
                #expect(direct.status == 0 && merged.status == 0, "\(predicate): \(direct.stderr)\(merged.stderr)")
                #expect(direct.stdout == merged.stdout, "\(predicate) in \(zone)")
            }
        }
    }
}
