import DiagModel
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct StreamTests {
    @Test func aSubscriberReceivesLiveRecordsFilteredByLevelAndProcess() throws {
        let daemon = try RunningDaemon()
        let subscriber = try DaemonClient(path: daemon.socketPath)
        subscriber.write("{\"subscribe\":{\"level\":\"debug\",\"processes\":[\"\(getpid())\"]}}\n")
        let subscribed = try #require(subscriber.readReply()?["subscribed"]?.objectValue)
        #expect(subscribed["level"]?.stringValue == "debug")
        let infoOnly = try DaemonClient(path: daemon.socketPath)
        infoOnly.write("{\"subscribe\":{\"level\":\"info\"}}\n")
        #expect(infoOnly.readReply()?["subscribed"] != nil)

        let logger = try DaemonClient(path: daemon.socketPath)
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

    @Test func aStreamPredicateIsEvaluatedByTheDaemon() throws {
        let daemon = try RunningDaemon()
        let subscriber = try DaemonClient(path: daemon.socketPath)
        subscriber.write("{\"subscribe\":{\"level\":\"debug\",\"predicate\":\"subsystem == 'com.example.sync' AND eventMessage CONTAINS[c] 'PUSH'\"}}\n")
        #expect(subscriber.readReply()?["subscribed"] != nil)
        let logger = try DaemonClient(path: daemon.socketPath)
        logger.write("""
            {"eventMessage":"push token refreshed","subsystem":"com.example.sync"}
            {"eventMessage":"push elsewhere","subsystem":"com.example.other"}
            {"eventMessage":"merge done","subsystem":"com.example.sync"}
            {"eventMessage":"second push","subsystem":"com.example.sync","messageType":"Debug"}

            """)
        #expect(subscriber.readReply()?["eventMessage"]?.stringValue == "push token refreshed")
        #expect(subscriber.readReply()?["eventMessage"]?.stringValue == "second push")
    }

    @Test func aStreamWithABadPredicateIsToldWhy() throws {
        let session = try RawDaemonSession()
        session.client.write("{\"subscribe\":{\"predicate\":\"process ==\"}}\n")
        let reply = try #require(session.client.readReply())
        #expect(reply["error"]?.stringValue?.hasPrefix("invalid predicate") == true)
        #expect(session.client.readReply() == nil)
    }

    @Test func aBadSubscriptionIsRefused() throws {
        let session = try RawDaemonSession()
        session.client.write("{\"subscribe\":{\"level\":\"loud\"}}\n")
        let reply = try #require(session.client.readReply())
        #expect(reply["error"]?.stringValue?.contains("accepted: debug, info or default") == true)
    }
}
