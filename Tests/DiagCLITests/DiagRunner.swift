import Foundation
import Testing
import TestSupport

/// Runs the built `diag` as a user would, in UTC, with a store that exists only for the test.
func diag(_ arguments: [String], environment: [String: String] = [:], input: Data? = nil) throws -> ProcessOutput {
    var env = ["TZ": "UTC", "DIAG_STORE": "/nonexistent/diag-test-store"]
    for (key, value) in environment { env[key] = value }
    return try run(BuiltProducts.path("diag"), arguments, environment: env, input: input)
}

/// The expected output named after a test, from `Expected/<name>.txt` beside this file.
/// With `DIAG_RECORD_EXPECTED=1` in the environment the actual output is written there instead.
func expectMatchesExpected(_ actual: String, _ name: String, filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Expected/\(name).txt")
    if ProcessInfo.processInfo.environment["DIAG_RECORD_EXPECTED"] == "1" {
        try Data(actual.utf8).write(to: url)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == expected, "output differs from Expected/\(name).txt", sourceLocation: sourceLocation)
}

/// Log files in the formats diag reads, as the tools that write them do.
enum Fixtures {
    /// Three records of `log show --style ndjson` (an Apple machine in +0100): Default, Error, Debug.
    static let appleNDJSON = """
        {"traceID":98765,"eventMessage":"upload started for zone \\"main\\"","eventType":"logEvent","source":null,"formatString":"upload started for zone \\"%{public}@\\"","activityIdentifier":4660,"subsystem":"com.example.sync","category":"upload","threadID":6699,"senderImageUUID":"0A1B2C3D-0000-0000-0000-000000000001","backtrace":{"frames":[{"imageOffset":1234,"imageUUID":"0A1B2C3D-0000-0000-0000-000000000001"}]},"bootUUID":"","processImagePath":"\\/usr\\/libexec\\/transport","timestamp":"2026-11-29 10:40:01.123456+0100","senderImagePath":"\\/usr\\/lib\\/libTransport.dylib","machTimestamp":123456789,"messageType":"Default","processImageUUID":"0A1B2C3D-0000-0000-0000-000000000002","processID":4242,"senderProgramCounter":1234,"parentActivityIdentifier":0,"timezoneName":""}
        {"traceID":98766,"eventMessage":"retrying after 500 ms","eventType":"logEvent","formatString":"retrying after %d ms","activityIdentifier":4660,"subsystem":"com.example.sync","category":"upload","threadID":6699,"processImagePath":"\\/usr\\/libexec\\/transport","timestamp":"2026-11-29 10:40:02.000001+0100","senderImagePath":"\\/usr\\/lib\\/libTransport.dylib","messageType":"Error","processID":4242,"parentActivityIdentifier":0}
        {"eventMessage":"verbose detail","eventType":"logEvent","subsystem":"com.example.sync","category":"upload","threadID":6699,"processImagePath":"\\/usr\\/libexec\\/transport","timestamp":"2026-11-29 10:40:03.000000+0100","senderImagePath":"\\/usr\\/lib\\/libTransport.dylib","messageType":"Debug","processID":4242}

        """

    /// The same records as `log show --style json` prints them: one pretty array.
    static var appleJSON: String {
        let objects = appleNDJSON.split(separator: "\n").map { line -> String in
            let object = try! JSONSerialization.jsonObject(with: Data(line.utf8))
            let data = try! JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\": ", with: "\" : ")
        }
        return "[" + objects.joined(separator: ",") + "]\n"
    }

    /// `journalctl -o json`: Info, Error, Debug.
    static let journal = """
        {"__CURSOR":"s=1;i=1","__REALTIME_TIMESTAMP":"1795945201123456","__MONOTONIC_TIMESTAMP":"12345","_BOOT_ID":"b1","PRIORITY":"6","_PID":"812","_UID":"0","_COMM":"sshd","_EXE":"/usr/sbin/sshd","SYSLOG_IDENTIFIER":"sshd","MESSAGE":"Accepted publickey for dev from 10.0.0.5 port 50522 ssh2","_HOSTNAME":"build1"}
        {"__CURSOR":"s=1;i=2","__REALTIME_TIMESTAMP":"1795945202000000","PRIORITY":"3","_PID":"1","_COMM":"systemd","SYSLOG_IDENTIFIER":"systemd","MESSAGE":"Failed to start sync.service.","_HOSTNAME":"build1"}
        {"__CURSOR":"s=1;i=3","__REALTIME_TIMESTAMP":"1795945203000000","PRIORITY":"7","_PID":"900","_COMM":"syncd","MESSAGE":"debug chatter","_HOSTNAME":"build1"}

        """

    /// `adb logcat -v threadtime`: Info, Error, Warning, Debug.
    static let logcat = """
        11-29 09:40:01.123  1234  5678 I ActivityManager: Start proc 4242:com.example.sync/u0a87 for service
        11-29 09:40:01.500  4242  4260 E SyncAdapter: upload failed: timeout
        11-29 09:40:02.000  4242  4242 W SyncAdapter: retrying
        11-29 09:40:03.000  4242  4242 D SyncAdapter: detail

        """

    /// BSD syslog lines, with a line that is not one in the middle.
    static let syslog = """
        Nov 29 09:40:00 build1 transport[4242]: connection opened
        Nov 29 09:40:05 build1 scheduler[77]: job refresh scheduled

        """
}
