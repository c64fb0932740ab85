@testable import DiagIngest
import DiagModel
import Foundation
import Testing
import TestSupport

/// `SyslogRowReader` against the general way (`SyslogParser.parse`, `SyslogMessage.record`,
/// `PackedRecords.append`): a message it takes gives the very bytes of the general way's row; a
/// message the general way refuses, it declines (the general way then says why).
@Suite struct SyslogRowReaderTests {
    static let receiptTime: Int64 = 1_795_945_200_123_456_789
    static let identity = DiagIngest.PeerIdentity(
        processID: 4242, userID: 501, groupID: 20, process: "sync-agent", processImagePath: "/usr/libexec/sync-agent")

    /// The general way's row of `message`, over TCP from `peer` or over the datagram socket
    /// from `identity`; nil when it refuses the message.
    static func generalRow(_ message: [UInt8], tcpPeer peer: String?, identity: DiagIngest.PeerIdentity?) -> [UInt8]? {
        guard let parsed = try? SyslogParser.parse(message) else { return nil }
        var record = parsed.record(peer: identity, receiptTime: receiptTime, transport: peer == nil ? "unix" : "tcp")
        if let peer { record.metadata?["syslogPeer"] = JSONValue.string(peer) }
        return PackedRecords([record]).bytes
    }

    /// The fast way's row, or nil where it declines.
    static func fastRow(_ message: [UInt8], tcpPeer peer: String?, identity: DiagIngest.PeerIdentity?, reader: inout SyslogRowReader) -> [UInt8]? {
        var packed = PackedRecords()
        let taken = message.withUnsafeBytes { bytes in
            reader.read(bytes, receiptTime: receiptTime, transport: peer == nil ? "unix" : "tcp", peer: peer,
                        identity: identity, into: &packed) { _, _, _ in true }
        }
        if !taken { #expect(packed.isEmpty) }
        return taken ? packed.bytes : nil
    }

    /// Both ways over TCP and the datagram socket: equal rows where the fast way takes it, and
    /// a decline wherever the general way refuses. Returns whether the fast way took it.
    @discardableResult
    static func compare(_ text: String, reader: inout SyslogRowReader, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        compare(Array(text.utf8), reader: &reader, sourceLocation: sourceLocation)
    }

    @discardableResult
    static func compare(_ message: [UInt8], reader: inout SyslogRowReader, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        var taken = true
        for (peer, identity) in [("127.0.0.1:50514", nil), (nil, Self.identity), (nil, nil)] as [(String?, DiagIngest.PeerIdentity?)] {
            let general = generalRow(message, tcpPeer: peer, identity: identity)
            let fast = fastRow(message, tcpPeer: peer, identity: identity, reader: &reader)
            if let fast {
                let same = fast == general
                #expect(same, "a different row for \(String(decoding: message, as: UTF8.self).debugDescription)", sourceLocation: sourceLocation)
            } else {
                taken = false
            }
            if general == nil { #expect(fast == nil, sourceLocation: sourceLocation) }
        }
        return taken
    }

    @Test func messagesItTakesGiveTheGeneralWaysRows() {
        var reader = SyslogRowReader()
        let taken = [
            "<13>1 2026-12-06T07:00:00.123456Z host app 1234 MSGID - a plain message",
            "<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut=\"3\" eventSource=\"Application\" eventID=\"1011\"] An application event",
            // Every NILVALUE, no MSG.
            "<13>1 - - - - - -",
            // Escapes in values, an element without parameters, a BOM before the message.
            "<30>1 2026-12-06T07:00:00+01:00 h a - - [x@1 q=\"say \\\"hi\\\" \\\\ and \\] or \\n\"][empty@1] \u{FEFF}after the BOM",
            // Names taken: by the header's keys, by an earlier element, twice.
            "<14>1 - h a 77 M [a@1 syslogPID=\"claimed\" zone=\"1\"][b@1 zone=\"2\" zone=\"3\"][a@1 zone=\"4\"] collisions",
            // Our own element: fields restored, metadata merged over the header's keys.
            "<11>1 2026-11-18T11:06:40.000000Z bench diag-bench-ingest 10001 push [diag@32473 subsystem=\"com.example.notifier\" sender=\"notifier\" activity=\"17045\" thread=\"1000\" parentActivity=\"-3\" trace=\"+9\" category=\"push\" formatString=\"processed %{public}@\" metadata=\"{\\\"attempt\\\":0,\\\"zone\\\":761,\\\"syslogFacility\\\":\\\"mine\\\",\\\"nested\\\":{\\\"b\\\":[1,2.5,true,null],\\\"a\\\":\\\"x\\\"},\\\"big\\\":1e300}\" unknown=\"ignored\"] processed batch 0",
            // Restored numbers that are not numbers become nil; a later value wins.
            "<11>1 - - - - - [diag@32473 activity=\"abc\" thread=\"5\" thread=\"\" trace=\"99999999999999999999\"] numbers",
            // Our element after another one, and metadata that is not JSON (ignored).
            "<11>1 - - - - - [z@9 zone=\"first\"][diag@32473 metadata=\"{\\\"zone\\\":\\\"ours\\\"}\"][y@9 zone=\"later\"][diag@32473 metadata=\"not json\"] order",
            // Control characters, DEL and C1 controls, and text beyond ASCII in values and message.
            "<15>1 - - - - - [c@1 v=\"tab\there \u{7F} \u{85} é 日本\"] line\u{1}one \u{9F} ünïcödé 🚀",
            // Trailing line ends and NULs are not part of the message.
            "<13>1 - - - - - - trailing\r\n\0",
            // The highest PRI.
            "<191>1 - - - - - - local7.debug",
            // No PRI: user.notice, as the general way reads it.
            "1 - - - - - - no pri",
            // RFC 3164 as glibc's syslog() and logger send it: BSD time (skipped), tag and PID.
            "<13>Dec  6 07:00:00 sync-agent[4242]: connected to 10.0.0.1",
            "<38>Oct 11 22:14:15 mymachine su: 'su root' failed for lonvick on /dev/pts/8",
            // A hostname only after a time, a tag without a colon, an RFC 3339 time in its place.
            "<13>Dec 16 07:00:00 host tag[12] after a tag without colon",
            "<14>2026-12-06T07:00:00.123456+01:00 host app[1]: rsyslog's high-precision time",
            // As Python's SysLogHandler sends it: no time, the tag is whatever comes first.
            "<11>sync-agent: no time at all",
            "<11>message without any tag",
            // Not a tag: too long, empty name, brackets not at the end.
            "<13>\(String(repeating: "t", count: 129)): long",
            "<13>[1]: no name",
            "<13>a[1]b: not a tag",
            // Just the PRI, a time and nothing else, a BOM and text beyond ASCII kept as they are.
            "<13>",
            "<13>Jan  1 00:00:00 ",
            "<13>app: \u{FEFF}ünïcödé 🚀 tab\there \u{0} nul",
            // A time that is not one stays message.
            "<13>Foo 11 22:14:15 not a month",
            "<13>2026-13-40T00:00:00Z app: a bad RFC 3339 time",
        ]
        for message in taken {
            #expect(Self.compare(message, reader: &reader), "declined: \(message.debugDescription)")
        }
    }

    @Test func messagesItDeclinesAreLeftToTheGeneralWay() {
        var reader = SyslogRowReader()
        let declined: [[UInt8]] = [
            // Empty, and a bad PRI.
            Array("".utf8),
            Array("\r\n\0".utf8),
            Array("<13 app: m".utf8),
            Array("<1000>app: m".utf8),
            // RFC 3164 text that is not UTF-8, in the tag and in the message.
            Array("<13>Dec  6 07:00:00 host ta".utf8) + [0xFF] + Array("g[12]: bsd".utf8),
            Array("<13>app: bad ".utf8) + [0xE2, 0x82],
            // Malformed RFC 5424: the general way says why.
            Array("<13>1 2026-13-40T00:00:00Z h a - - - bad time".utf8),
            Array("<13>1 - h a - -".utf8),
            Array("<13>1 - h a - - [x@1 v=\"unclosed] m".utf8),
            Array("<13>1 - h a - - [x@1 v=\"1\"]no space".utf8),
            Array("<13>1 - h a - - [x@1 v=1] m".utf8),
            Array("<13>1 - h a - - [] m".utf8),
            Array("<192>1 - h a - - - m".utf8),
            Array("<13>1 - \(String(repeating: "h", count: 256)) a - - - m".utf8),
            // Text that is not UTF-8 (the general way repairs it with U+FFFD).
            Array("<13>1 - h a - - - bad ".utf8) + [0xC3, 0x28],
            Array("<13>1 - h a - - [x@1 v=\"".utf8) + [0xFF] + Array("\"] m".utf8),
            // A metadata key beyond ASCII, where String's equality and order are Unicode's.
            Array("<13>1 - h a - - [diag@32473 metadata=\"{\\\"zoné\\\":1}\"] m".utf8),
            Array("<13>1 - - - - - [x@1 \(String(repeating: "p=\"1\" ", count: 257))] too many".utf8),
        ]
        for message in declined {
            #expect(!Self.compare(message, reader: &reader), "taken: \(String(decoding: message, as: UTF8.self).debugDescription)")
        }
    }

    @Test func theLevelSettingsDecideBeforeAnythingIsAppended() {
        var reader = SyslogRowReader()
        var packed = PackedRecords()
        var asked: (MessageType, String?, String?)?
        let message = Array("<15>1 - h a - - [diag@32473 subsystem=\"com.example.sync\" category=\"io\"] debug".utf8)
        let taken = message.withUnsafeBytes { bytes in
            reader.read(bytes, receiptTime: Self.receiptTime, transport: "tcp", peer: nil, identity: nil, into: &packed) { type, subsystem, category in
                asked = (type, subsystem(), category())
                return false
            }
        }
        #expect(!taken)
        #expect(packed.isEmpty)
        #expect(asked?.0 == .debug)
        #expect(asked?.1 == "com.example.sync")
        #expect(asked?.2 == "io")
    }

    /// Messages put together from pieces, valid and not, many times over: the same property.
    @Test func messagesFromPiecesAgreeWithTheGeneralWay() {
        var random = SeededPicker(state: 20261206)
        // Each part of a message: pieces that are valid there, and pieces that are not; a valid one
        // most of the time, so that enough whole messages are valid to compare their rows.
        let parts: [(valid: [String], invalid: [String])] = [
            (["<13>", "<0>", "<191>", "<86>"], ["<192>", "<1a>", "", "<13"]),
            (["1 "], ["1", "2 ", ""]),
            (["- ", "2026-12-06T07:00:00Z ", "2026-12-06T07:00:00.5+05:30 ", "1999-12-31T23:59:60.999999999-12:00 "],
             ["2026-02-30T00:00:00Z ", "yesterday ", " "]),
            (["- ", "host ", "a.b-c "], ["é ", " "]),
            (["- ", "app ", "\(String(repeating: "x", count: 48)) "], ["\(String(repeating: "x", count: 49)) "]),
            (["- ", "12 ", "[pid] "], [" "]),
            (["- ", "ID47 "], ["\(String(repeating: "m", count: 33)) "]),
        ]
        let elements = (
            valid: [
                "[x@1]", "[x@1 a=\"1\"]", "[x@1 a=\"\\\"\\\\\\]\" b=\"\"]", "[diag@32473 subsystem=\"s\" metadata=\"{\\\"a\\\":1}\"]",
                "[diag@32473 thread=\"x\" activity=\"12\" sender=\"s\" category=\"c\"]", "[x@1 a=\"1\"][x@1 a=\"2\"]",
                "[x@1 syslogHostname=\"h\"]", "[y@2 a=\"3\" x@1.a=\"4\"]", "[x@1 a=\"\u{1}\u{7F}\u{85} é\"]",
                "[diag@32473 metadata=\"{\\\"syslogPeer\\\":\\\"p\\\",\\\"k\\\":[1,{\\\"z\\\":null}],\\\"a\\\":-0.0}\"]",
            ],
            invalid: ["[bad=id a=\"1\"]", "[x@1 a=\"1\" ", "[x@1 a=1]", "[]", "[x@1 a=\"1\"] "])
        let messages = ["", " ", " hello", " \u{FEFF}bom", " tab\tand\u{0}nul", " ünï 🚀", " trailing\n", "\n", " \u{FEFF}"]
        var reader = SyslogRowReader()
        var taken = 0
        for _ in 0..<3_000 {
            var text = ""
            for part in parts {
                let valid = random.int(100) < 88
                text += random.pick(valid ? part.valid : part.invalid)
            }
            if random.int(100) < 20 {
                text += "-"
            } else {
                for _ in 0..<(1 + random.int(3)) {
                    let valid = random.int(100) < 92
                    text += random.pick(valid ? elements.valid : elements.invalid)
                }
            }
            text += random.pick(messages)
            if Self.compare(text, reader: &reader) { taken += 1 }
        }
        // Enough of them valid for the comparison to mean something.
        #expect(taken > 1_000)
    }

    /// BSD messages put together from pieces: a PRI or none, a time of either form or none, a
    /// hostname, a tag in its forms, a message; the same property.
    /// The BSD time's month in any case of its ASCII letters is a time, skipped; three bytes that
    /// are no month (a digit, a letter beyond ASCII) leave the text as message. Both readers
    /// follow these rules (`RFC3164Parser.Header`), so this checks the rules themselves.
    @Test(arguments: [
        ("<13>Nov 18 11:06:40 host app[1]: m", true),
        ("<13>NOV 18 11:06:40 host app[1]: m", true),
        ("<13>nOv  8 11:06:40 host app[1]: m", true),
        ("<13>dec 31 23:59:59 host app[1]: m", true),
        ("<13>N0v 18 11:06:40 host app[1]: m", false),
        ("<13>Növ 18 11:06:40 host app[1]: m", false),
        ("<13>Nox 18 11:06:40 host app[1]: m", false),
        ("<13>Nov 18 11:06:4x host app[1]: m", false),
    ])
    func bsdMonthsAreReadInEitherCase(text: String, isTime: Bool) throws {
        let message = try SyslogParser.parse(Array(text.utf8))
        if isTime {
            #expect(message.hostname == "host")
            #expect(message.appName == "app")
            #expect(message.processID == "1")
            #expect(message.message == "m")
        } else {
            #expect(message.hostname == nil)
            #expect(message.appName == nil)
            #expect(message.message == String(text.dropFirst(4)))
        }
        var reader = SyslogRowReader()
        #expect(Self.compare(text, reader: &reader))
    }

    @Test func bsdMessagesFromPiecesAgreeWithTheGeneralWay() {
        var random = SeededPicker(state: 3164)
        let parts: [[String]] = [
            ["<13>", "<0>", "<191>", "", "<192>", "<1a>"],
            ["Dec  6 07:00:00 ", "Jan 16 23:59:59 ", "dec 06 07:00:00 ", "2026-12-06T07:00:00Z ", "2026-12-06T07:00:00.5+05:30 ",
             "2026-02-30T00:00:00Z ", "Foo  6 07:00:00 ", "Dec  6 07:00:0x ", ""],
            ["host ", "a.b-c ", "é ", "", " "],
            ["app: ", "app[12]: ", "app[12] ", "app[]: ", "[12]: ", "a[1]b: ", ": ", "app:", "\(String(repeating: "t", count: 128)): ", ""],
            ["hello", "", " spaced  out ", "\u{FEFF}bom", "tab\tand\u{0}nul", "ünï 🚀", "trailing\n", "key=value [x] y:z"],
        ]
        var reader = SyslogRowReader()
        var taken = 0
        for _ in 0..<3_000 {
            let text = parts.map { random.pick($0) }.joined()
            if Self.compare(text, reader: &reader) { taken += 1 }
        }
        #expect(taken > 1_000)
    }
}
