import DiagForward
import Testing

@Suite struct ForwardDestinationTests {
    @Test func parsesRFC5424OverTCP() throws {
        let plain = try ForwardDestination(parsing: "rfc5424+tcp://127.0.0.1:5140")
        #expect(plain.kind == .rfc5424TCP(facility: 1))
        #expect(plain.host == "127.0.0.1" && plain.port == 5140)
        let named = try ForwardDestination(parsing: "RFC5424+TCP://logs.example.com:514/?facility=local3")
        #expect(named.kind == .rfc5424TCP(facility: 19))
        #expect(named.url == "rfc5424+tcp://logs.example.com:514?facility=19")
        let six = try ForwardDestination(parsing: "rfc5424+tcp://[::1]:514?facility=0")
        #expect(six.host == "::1" && six.url == "rfc5424+tcp://[::1]:514?facility=0")
    }

    @Test func parsesOTLPOverHTTP() throws {
        let otlp = try ForwardDestination(parsing: "otlp+http://collector:4318/v1/logs")
        #expect(otlp.kind == .otlpHTTP(path: "/v1/logs"))
        #expect(try ForwardDestination(parsing: "otlp+http://collector:4318").url == "otlp+http://collector:4318/v1/logs")
    }

    @Test(arguments: [
        ("syslog://h:514", "unknown scheme 'syslog'"),
        ("rfc5424+tcp:/h:514", "no scheme"),
        ("rfc5424+tcp://h", "no port"),
        ("rfc5424+tcp://:514", "no host"),
        ("rfc5424+tcp://h:0", "port '0' is not a number from 1 to 65535"),
        ("rfc5424+tcp://h:65536", "port '65536' is not a number from 1 to 65535"),
        ("rfc5424+tcp://h:x", "port 'x' is not a number"),
        ("rfc5424+tcp://h o:514", "'h o' is not a host name"),
        ("rfc5424+tcp://[::1:514", "without its closing ']'"),
        ("rfc5424+tcp://[::1]", "no port after the IPv6 address"),
        ("rfc5424+tcp://[zz]:1", "'zz' is not an IPv6 address"),
        ("rfc5424+tcp://h:514?facility=24", "facility '24' is not 0…23 or a name"),
        ("rfc5424+tcp://h:514?facility=", "facility '' is not 0…23"),
        ("rfc5424+tcp://h:514?level=3", "unknown parameter 'level=3'"),
        ("rfc5424+tcp://h:514/path", "a path ('/path') has no meaning"),
        ("otlp+http://h:4318/v1/logs?x=1", "otlp+http takes no query"),
        ("otlp+http://h:4318/v1 logs", "holds a character a URL path cannot"),
        ("otlp+http://h:4318/v1/%zz", "holds a character a URL path cannot"),
        ("otlp+http://h:4318/é", "holds a character a URL path cannot"),
    ])
    func refusesMalformedURLs(url: String, reason: String) {
        do {
            _ = try ForwardDestination(parsing: url)
            Issue.record("\(url) was accepted")
        } catch {
            #expect(error.description.hasPrefix("forward URL '\(url)': "))
            #expect(error.description.contains(reason), "\(error)")
            #expect(error.description.contains("accepted: rfc5424+tcp://HOST:PORT"))
        }
    }
}
