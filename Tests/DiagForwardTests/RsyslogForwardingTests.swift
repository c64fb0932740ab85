import Foundation
import Glibc
import Testing
import TestSupport

/// diagd forwarding to a real rsyslogd over RFC 5424/TCP: fields, Unicode, a receiver that
/// stops and comes back, a daemon killed and restarted.
@Suite(.serialized) struct RsyslogForwardingTests {
    @Test func everyRecordArrivesWithItsFields() throws {
        let rsyslog = try RsyslogReceiver()
        let daemon = try RunningDaemon(arguments: ["--forward", "rfc5424+tcp://127.0.0.1:\(rsyslog.port)?facility=local4"])
        let tricky = #"quote " backslash \ bracket ] café 日本語 🙂 e\u0301"#
        try daemon.send((0..<200).map { index in
            recordLine(
                tag: "fields", index: index, message: index % 2 == 0 ? tricky : "line one\nline two",
                extra: #","messageType":"\#(["Fault", "Error", "Default", "Info"][index % 4])","subsystem":"com.example.sync \"x\" ]","category":"upload","activityIdentifier":\#(1000 + index),"metadata":{"zone":"Photos"}"#)
        })
        #expect(rsyslog.wait { Set(rsyslog.indexes(tagged: "fields")).count == 200 })
        let comm = (try String(contentsOfFile: "/proc/self/comm", encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)
        var seen = Set<Int>()
        for line in rsyslog.lines() {
            guard let message = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  let text = message["msg"] as? String, text.hasPrefix("fields #") else { continue }
            let index = Int(text.dropFirst(8).prefix { $0.isNumber })!
            seen.insert(index)
            let severity = [2, 3, 5, 6][index % 4]
            #expect(message["pri"] as? String == String(20 * 8 + severity))
            #expect(message["msgid"] as? String == "upload")
            #expect(message["procid"] as? String == String(getpid()))
            #expect(message["appname"] as? String == String(comm.map { $0.isASCII && $0 != " " ? $0 : "_" }))
            let sd = message["sd"] as? String ?? ""
            #expect(sd.hasPrefix(#"[diag@32473 subsystem="com.example.sync \"x\" \]" activity="\#(1000 + index)""#), "\(sd)")
            #expect(sd.contains(#"metadata="{\"zone\":\"Photos\"}""#))
            if index % 2 == 0 {
                #expect(text == "fields #\(index) \(tricky)")
                // Non-ASCII MSG: the BOM of RFC 5424 §6.4 arrives in front of the text.
                #expect(line.contains("\"msg\":\"\u{FEFF}fields #\(index) "))
            } else {
                #expect(text == "fields #\(index) line one\nline two")
                #expect(line.contains("\"msg\":\"fields #\(index) "))
            }
            let timestamp = message["timestamp"] as? String ?? ""
            #expect(timestamp.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$"#, options: .regularExpression) != nil, "\(timestamp)")
        }
        #expect(seen == Set(0..<200))
    }

    @Test func receiverStoppedMidStreamLosesNothing() throws {
        let rsyslog = try RsyslogReceiver()
        let daemon = try RunningDaemon(arguments: ["--forward", "rfc5424+tcp://127.0.0.1:\(rsyslog.port)"])
        let padding = String(repeating: "x", count: 200)
        // A burst big enough to be still under way when the receiver stops.
        try daemon.send((0..<40_000).map { recordLine(tag: "stream", index: $0, message: padding) })
        #expect(rsyslog.wait { rsyslog.receivedBytes > 0 })
        rsyslog.stop()
        let beforeStop = Set(rsyslog.indexes(tagged: "stream"))
        #expect(beforeStop.count < 40_000, "the receiver stopped mid-stream")
        // More records while it is down: they wait in the store.
        try daemon.send((40_000..<50_000).map { recordLine(tag: "stream", index: $0, message: padding) })
        try rsyslog.start()
        rsyslog.wait(seconds: 120) { Set(rsyslog.indexes(tagged: "stream")).count == 50_000 }
        let missing = Set(0..<50_000).subtracting(rsyslog.indexes(tagged: "stream"))
        #expect(missing.isEmpty, "\(missing.count) records never arrived, e.g. \(missing.sorted().prefix(5))")
        #expect(daemon.stderr.contains("the receiver takes records again"))
    }

    /// A receiver that stops reading, then dies: what its kernel had taken for it is gone, and
    /// the forward sends it again (the sink's replay window) once a new rsyslogd listens.
    @Test func receiverKilledWhileStalledLosesNothing() throws {
        let rsyslog = try RsyslogReceiver()
        let daemon = try RunningDaemon(arguments: ["--forward", "rfc5424+tcp://127.0.0.1:\(rsyslog.port)"])
        let padding = String(repeating: "y", count: 200)
        try daemon.send((0..<40_000).map { recordLine(tag: "stall", index: $0, message: padding) })
        #expect(rsyslog.wait { rsyslog.receivedBytes > 0 })
        rsyslog.send(signal: SIGSTOP)
        // The forward fills the stalled receiver's socket buffers, then waits.
        usleep(1_000_000)
        rsyslog.send(signal: SIGKILL)
        #expect(Set(rsyslog.indexes(tagged: "stall")).count < 40_000, "the receiver died mid-stream")
        try rsyslog.start()
        rsyslog.wait(seconds: 120) { Set(rsyslog.indexes(tagged: "stall")).count == 40_000 }
        let missing = Set(0..<40_000).subtracting(rsyslog.indexes(tagged: "stall"))
        #expect(missing.isEmpty, "\(missing.count) records never arrived, e.g. \(missing.sorted().prefix(5))")
    }

    /// The same when the forward has caught up before the receiver dies: every record sits in the
    /// dead receiver's kernel, nothing more is logged, and the forward must notice the broken
    /// connection by itself (it once waited for the next record to do so).
    @Test func receiverKilledAfterTheForwardCaughtUpGetsTheRecordsAgain() throws {
        let rsyslog = try RsyslogReceiver()
        let daemon = try RunningDaemon(arguments: ["--forward", "rfc5424+tcp://127.0.0.1:\(rsyslog.port)"])
        // Stopped before the forward connects: the kernel still completes the connection and
        // takes the frames into its buffers for the stopped receiver.
        rsyslog.send(signal: SIGSTOP)
        // 3,000 frames of about 450 bytes: far less than the stalled receiver's socket buffers take.
        let padding = String(repeating: "z", count: 200)
        try daemon.send((0..<3_000).map { recordLine(tag: "caught-up", index: $0, message: padding) })
        usleep(1_500_000)
        rsyslog.send(signal: SIGKILL)
        #expect(rsyslog.indexes(tagged: "caught-up").isEmpty, "the stalled receiver wrote nothing")
        try rsyslog.start()
        rsyslog.wait(seconds: 60) { Set(rsyslog.indexes(tagged: "caught-up")).count == 3_000 }
        let missing = Set(0..<3_000).subtracting(rsyslog.indexes(tagged: "caught-up"))
        #expect(missing.isEmpty, "\(missing.count) records never arrived, e.g. \(missing.sorted().prefix(5))")
    }

    @Test func killedDaemonResumesFromItsCursor() throws {
        let rsyslog = try RsyslogReceiver()
        let daemon = try RunningDaemon(arguments: ["--forward", "rfc5424+tcp://127.0.0.1:\(rsyslog.port)"])
        try daemon.send((0..<500).map { recordLine(tag: "before", index: $0) })
        #expect(rsyslog.wait { Set(rsyslog.indexes(tagged: "before")).count == 500 })
        rsyslog.stop()
        // Committed while the receiver is down: they wait in the store, behind the cursor.
        try daemon.send((0..<500).map { recordLine(tag: "during", index: $0) })
        daemon.kill(SIGKILL)
        try rsyslog.start()
        try daemon.start()
        try daemon.send((0..<500).map { recordLine(tag: "after", index: $0) })
        rsyslog.wait { ["during", "after"].allSatisfy { Set(rsyslog.indexes(tagged: $0)).count == 500 } }
        for tag in ["before", "during", "after"] {
            #expect(Set(rsyslog.indexes(tagged: tag)) == Set(0..<500), "\(tag)")
        }
        // The cursor was saved after the first records: they were not sent again.
        #expect(rsyslog.indexes(tagged: "before").count == 500)
        #expect(daemon.stderr.contains("resuming after chunk"))
    }
}
