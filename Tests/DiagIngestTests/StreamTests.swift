import DiagModel
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct StreamTests {
    @Test func aSubscriberReceivesLiveRecordsFilteredByLevelAndProcess() throws {
        let daemon = try RunningDaemon()
        let subscriber = try RawClient(path: daemon.socketPath)
        subscriber.write("{\"subscribe\":{\"level\":\"debug\",\"processes\":[\"\(getpid())\"]}}\n")
        let subscribed = try #require(subscriber.readReply()?["subscribed"]?.objectValue)
        #expect(subscribed["level"]?.stringValue == "debug")
        let infoOnly = try RawClient(path: daemon.socketPath)
        infoOnly.write("{\"subscribe\":{\"level\":\"info\"}}\n")
        #expect(infoOnly.readReply()?["subscribed"] != nil)

        let logger = try RawClient(path: daemon.socketPath)
        logger.write("""
            {"eventMessage":"live debug","messageType":"Debug"}
            {"eventMessage":"live error","messageType":"Error"}
            {"sync":1}

            """)
        #expect(logger.waitForSync(1) == [])
        let first = try #require(subscriber.readReply())
        let second = try #require(subscriber.readReply())
        #expect(first["eventMessage"]?.stringValue == "live debug")
        #expect(second["eventMessage"]?.stringValue == "live error")
        #expect(second["processID"]?.int64Value == Int64(getpid()))
        #expect(infoOnly.readReply()?["eventMessage"]?.stringValue == "live error")

        // A client from another process (diag-bench-ingest) is filtered out by the process list.
        let other = try run(BuiltProducts.path("diag-bench-ingest"), ["log", "--records", "3", "--socket", daemon.socketPath, "--tag", "other"])
        #expect(other.status == 0)
        logger.write("{\"eventMessage\":\"marker\"}\n")
        #expect(subscriber.readReply()?["eventMessage"]?.stringValue == "marker")
    }

    @Test func aBadSubscriptionIsRefused() throws {
        let session = try RawDaemonSession()
        session.client.write("{\"subscribe\":{\"level\":\"loud\"}}\n")
        let reply = try #require(session.client.readReply())
        #expect(reply["error"]?.stringValue?.contains("accepted: debug, info or default") == true)
    }
}
