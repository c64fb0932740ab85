import DiagClient
import Testing
import TestSupport

@Suite struct ActivityTests {
    let transport: LogTransport

    init() throws {
        // No daemon listens here: the records only wait in the buffer, which these tests do not read.
        transport = LogTransport(socketPath: "/nonexistent/diag-test.sock")
    }

    @Test func theCurrentActivityIsSetInsideAndClearedAfter() {
        #expect(Activity.current == nil)
        var inside: Activity?
        Activity("export", transport: transport) {
            inside = Activity.current
        }
        #expect(inside?.name == "export")
        #expect((inside?.identifier ?? 0) > 0)
        #expect(inside?.parentIdentifier == nil)
        #expect(Activity.current == nil)
    }

    @Test func aNestedActivityNamesItsParent() {
        var outer: Activity?
        var inner: Activity?
        Activity("sync", transport: transport) {
            outer = Activity.current
            Activity("upload", transport: transport) {
                inner = Activity.current
            }
            #expect(Activity.current == outer)
        }
        #expect(inner?.parentIdentifier == outer?.identifier)
        #expect(inner?.identifier != outer?.identifier)
    }

    @Test func childTasksInheritTheActivity() async {
        var seen: [Int64?] = []
        var started: Activity?
        await Activity("fetch", transport: transport) {
            started = Activity.current
            seen = await withTaskGroup(of: Int64?.self) { group in
                for _ in 0..<4 { group.addTask { Activity.current?.identifier } }
                var identifiers: [Int64?] = []
                for await identifier in group { identifiers.append(identifier) }
                return identifiers
            }
        }
        #expect(seen.count == 4)
        #expect(seen.allSatisfy { $0 == started?.identifier })
    }

    @Test func anAdoptedIdentifierFromAnotherProcessBecomesCurrent() {
        var adopted: Int64?
        Activity(adopting: 123_456_789) {
            adopted = Activity.current?.identifier
        }
        #expect(adopted == 123_456_789)
    }

    @Test func identifiersDiffer() {
        var identifiers = Set<Int64>()
        for _ in 0..<100 {
            Activity("many", transport: transport) { identifiers.insert(Activity.current!.identifier) }
        }
        #expect(identifiers.count == 100)
    }
}

@Suite struct TransportBufferTests {
    @Test func withoutADaemonRecordsBeyondTheBufferAreDroppedAndCounted() throws {
        let transport = LogTransport(socketPath: "/nonexistent/diag-test.sock", bufferLimit: 2048)
        let logger = Logger(subsystem: "com.example.sync", category: "buffer", transport: transport)
        for index in 0..<100 { logger.error("record \(index, privacy: .public)") }
        let dropped = transport.statistics.dropped
        #expect(dropped > 80 && dropped < 100)
        #expect(throws: DiagClientError.self) { try transport.flush(timeout: 0.2) }
    }

    @Test func recordsBelowTheMinimumLevelAreNotEvenBuilt() {
        let transport = LogTransport(socketPath: "/nonexistent/diag-test.sock", minimumLevel: .error)
        let logger = Logger(subsystem: "com.example.sync", category: "levels", transport: transport)
        var built = 0
        func expensive() -> String { built += 1; return "value" }
        logger.debug("debug \(expensive())")
        logger.info("info \(expensive())")
        logger.error("error \(expensive())")
        #expect(built == 1)
    }
}
