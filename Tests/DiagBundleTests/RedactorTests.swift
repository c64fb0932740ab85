import DiagBundle
import Foundation
import Testing

struct RedactorTests {
    func makeRedactor() -> Redactor {
        Redactor(userNames: ["alice", "bob"], hostNames: ["build-07.corp.example", "build-07"])
    }

    @Test func eachKindIsReplacedAndTheSameValueKeepsItsPlaceholder() {
        let redactor = makeRedactor()
        let first = redactor.redact("alice@example.com from 192.168.10.4 (aa:bb:cc:dd:ee:0f) via fe80::1c2b:3cff:fe4d:5e6f%eth0 on build-07")
        #expect(first == "<email-1> from <ipv4-1> (<mac-1>) via <ipv6-1> on <host-1>")
        let second = redactor.redact("retry 192.168.10.4 for ALICE@EXAMPLE.COM; 10.0.0.9 next, user bob in /home/alice/sync")
        #expect(second == "retry <ipv4-1> for <email-1>; <ipv4-2> next, user <user-2> in /home/<user-1>/sync")
        let third = redactor.redact("alice logged in")
        #expect(third == "<user-1> logged in")
    }

    @Test func networkHostsInURLsAndHostPortPairs() {
        let redactor = makeRedactor()
        #expect(redactor.redact("GET https://api.sync.example.net/v1/zones failed") == "GET https://<host-1>/v1/zones failed")
        #expect(redactor.redact("connect push.example.org:5223 refused, api.sync.example.net:443 ok") == "connect <host-2>:5223 refused, <host-1>:443 ok")
        #expect(redactor.redact("BUILD-07.corp.example is up") == "<host-3> is up")
    }

    @Test(arguments: [
        "subsystem com.example.sync.transport category zone",
        "version 1.2.3 at 09:40:01.123456 on 2026-11-29",
        "loopback 127.0.0.1 and ::1 and 0.0.0.0 stay",
        "ratio 3:4:5 and C++ std::vector",
        "a file Model.sqlite and bobcat and alice_tmp stay",
        "not an address 300.1.2.3 nor 1.2.3.4.5",
    ])
    func ordinaryTextIsLeftAlone(text: String) {
        #expect(makeRedactor().redact(text) == text)
    }

    @Test func theMapListsEveryValueAgainstItsPlaceholder() throws {
        let redactor = makeRedactor()
        _ = redactor.redact("mail bob@example.com from 2001:db8::42 and 10.1.2.3")
        let map = try JSONSerialization.jsonObject(with: try redactor.mapJSON()) as? [String: [String: String]]
        #expect(map?["email"] == ["bob@example.com": "<email-1>"])
        #expect(map?["ipv6"] == ["2001:db8::42": "<ipv6-1>"])
        #expect(map?["ipv4"] == ["10.1.2.3": "<ipv4-1>"])
    }
}
