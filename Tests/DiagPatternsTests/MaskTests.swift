import DiagPatterns
import Testing

/// Each shape that varies in real logs becomes `<*>`, and the words around it stay.
@Suite struct MaskTests {
    @Test(arguments: [
        ("retry 3 of 10", "retry <*> of <*>"),                                       // numbers
        ("offset -42 ratio 0.75", "offset <*> ratio <*>"),                           // signed, decimal
        ("flags=0x1f at 0xDEADBEEF", "flags=<*> at <*>"),                             // hex
        ("store 747A4381-44A2-45AD-A66B-ACB8E572F462 opened", "store <*> opened"),   // UUID
        ("connect to 10.251.73.220 failed", "connect to <*> failed"),                  // IPv4
        ("listening on [fe80::1ff:fe23:4567:890a]:8080", "listening on [<*>]:<*>"),    // IPv6 and port
        ("peer 10.0.0.1:50010 closed", "peer <*> closed"),                             // host:port
        ("open /var/log/sync/a.sqlite done", "open <*> done"),                         // path
        ("read ~/Library/x and ./y/z", "read <*> and <*>"),                            // relative paths
        ("socket demo/run/d.sock, log out.d/a.log", "socket <*> log <*>"),            // relative paths
        ("TCP/IP and/or", "TCP/IP and/or"),                                            // words with a slash stay
        ("GET https://example.com/v2/items ok", "GET <*> ok"),                        // URL
        ("took 992 ms", "took <*>"),                                                   // duration, unit apart
        ("took 1.5s, wrote 64KB", "took <*>, wrote <*>"),                              // duration, size
        ("size 67108864 B, free 3.2 GiB)", "size <*>, free <*>)"),                   // sizes with units
        ("at 2026-11-29 09:40:01.123 UTC", "at <*> UTC"),                              // date and time
        ("started 12:00:01,5 ok", "started <*> ok"),                                   // time
        ("loading 'sparkExecutor' now", "loading '<*>' now"),                          // quoted value
        ("state=RUNNING user=alice", "state=<*> user=<*>"),                            // key=value
        ("Decision: Can Proceed", "Decision: Can Proceed"),                            // words stay
    ])
    func masks(_ message: String, _ expected: String) {
        #expect(MessageMasker.mask(message) == expected)
    }

    @Test(arguments: ["ns", "us", "µs", "ms", "s", "sec", "secs", "second", "seconds", "min", "mins", "minutes", "h", "hours",
                      "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib", "byte", "bytes"])
    func everyUnitAfterANumberIsPartOfIt(_ unit: String) {
        #expect(MessageMasker.mask("took 12 \(unit) ok") == "took <*> ok")
        let upper = String(unit.map { $0.isASCII ? Character($0.uppercased()) : $0 })
        #expect(MessageMasker.mask("took 12 \(upper), ok") == "took <*>, ok")
        // A unit is a whole word: one letter more or less is a word of its own.
        #expect(MessageMasker.mask("took 12 \(unit)x ok") == "took <*> \(unit)x ok")
    }

    @Test func runsOfVariableWordsAreOneVariable() {
        #expect(MessageMasker.mask("values 1 2 3 end") == MessageMasker.mask("values 7 end"))
        #expect(MessageMasker.mask("a  \t b") == "a b")
    }

    @Test func nonASCIIAndEmptyMessagesAreKept() {
        #expect(MessageMasker.mask("") == "")
        #expect(MessageMasker.mask("Überweisung für Jörg: 12 €") == "Überweisung für Jörg: <*> €")
    }
}
