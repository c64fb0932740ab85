import Foundation
import Testing
import TestSupport

/// `$NAME` in a fleet predicate: `--var`, else the identifier the loaded manifests agree on,
/// as `diag show BUNDLE…` takes them.
@Suite("fleet predicates with $NAME")
struct VariablesTests {
    @Test func identifiersComeFromTheManifestsUnlessGiven() throws {
        let fixture = try FleetFixture.shared()
        let folder = try TemporaryDirectory("fleet-vars")
        let bundle = folder.file("vars.tar.gz").path
        try FleetFixture.expectSuccess(fixture.diag([
            "collect", "--store", fixture.folder.file("edges.logarchive").path, "--output", bundle, "--var", "STORE=ABC",
        ]))
        let url = try PostgresServer.shared().makeDatabase()
        try FleetFixture.expectSuccess(fixture.diag(["fleet", "load", "--database", url, bundle]))
        let predicate = "metadata.storeIdentifier == $STORE"
        for extra in [[], ["--var", "STORE=abc"]] {
            let local = try fixture.diag(["show", "--info", "--style", "ndjson", "--predicate", predicate] + extra + [bundle])
            let fleet = try fixture.diag(["fleet", "show", "--database", url, "--info", "--style", "ndjson", "--predicate", predicate] + extra)
            #expect(local.status == 0 && fleet.status == 0, "\(local.stderr) \(fleet.stderr)")
            #expect(!local.stdout.isEmpty)
            #expect(fleet.stdout == local.stdout, "\(extra)")
        }
        let unbound = try fixture.diag(["fleet", "show", "--database", fixture.databaseURL, "--predicate", "process == $NOBODY"])
        #expect(unbound.status == 65)
        #expect(unbound.stderr.contains("NOBODY"), "\(unbound.stderr)")
    }
}
