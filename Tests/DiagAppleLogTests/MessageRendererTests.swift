import Testing
@testable import DiagAppleLog

/// Each conversion against what printf and Apple's `log` print for it (checked by hand).
@Suite struct MessageRendererTests {
    static func int(_ value: Int64, _ size: Int = 4) -> FirehoseValue {
        .scalar(UInt64(bitPattern: value) & (size == 8 ? .max : (1 << (8 * UInt64(size))) - 1), byteCount: size)
    }

    @Test(arguments: [
        ("%d", [int(-42)], "-42"),
        ("%i", [int(7)], "7"),
        ("%u", [int(-1)], "4294967295"),
        ("%lld", [int(-5_000_000_000, 8)], "-5000000000"),
        ("%llu", [int(-1, 8)], "18446744073709551615"),
        ("%x", [int(255)], "ff"),
        ("%X", [int(255)], "FF"),
        ("%#x", [int(255)], "0xff"),
        ("%#x", [int(0)], "0"),
        ("%p", [int(0x1000, 8)], "0x1000"),
        ("%o", [int(8)], "10"),
        ("%5d|", [int(42)], "   42|"),
        ("%-5d|", [int(42)], "42   |"),
        ("%05d", [int(-42)], "-0042"),
        ("%+d", [int(3)], "+3"),
        ("%.3d", [int(7)], "007"),
        ("%6.6d", [int(1)], "000001"),
        ("%c", [int(65)], "A"),
        ("%s", [.string("text")], "text"),
        ("%s", [.string(nil)], "(null)"),
        ("%{public}s", [.string("shown")], "shown"),
        ("%{private}s", [.privateValue], "<private>"),
        ("%{public}@", [.string("<NSObject: 0x1>")], "<NSObject: 0x1>"),
        ("%.3s", [.string("abcdef")], "abc"),
        ("%.*s", [.count(2), .string("abcdef")], "ab"),
        ("%*d", [.count(4), int(5)], "   5"),
        ("%{public}-22s: OFF", [.string("SFIManagedFocal")], "SFIManagedFocal       : OFF"),
        ("%{bool}d", [int(1)], "true"),
        ("%{bool}d", [int(0)], "false"),
        ("%{BOOL}d", [int(1)], "YES"),
        ("%{BOOL}d", [int(0)], "NO"),
        ("%{time_t}d", [int(1_452_627_697, 8)], "2016-01-12 19:41:37"),
        ("%{errno}d", [int(32)], "[32: Broken pipe]"),
        ("%{darwin.errno}d", [int(60)], "[60: Operation timed out]"),
        ("%m", [int(2)], "No such file or directory"),
        ("%{darwin.signal}d", [int(11)], "[sigsegv: Segmentation fault]"),
        ("%{darwin.mode}d", [int(0o40755)], "drwxr-xr-x"),
        ("%{network:in_addr}d", [int(0x0100007F)], "127.0.0.1"),
        ("%{public,uuid_t}.16P", [.data([0x10, 0x74, 0x2E, 0x39, 0x06, 0x57, 0x41, 0xF8, 0xAB, 0x99, 0x87, 0x8C, 0x5E, 0xC2, 0xDC, 0xAA])], "10742E39-0657-41F8-AB99-878C5EC2DCAA"),
        ("%{iec-bytes}llu", [int(4_833, 8)], "4.72 KiB"),
        ("%.2f", [.scalar(2.5.bitPattern, byteCount: 8)], "2.50"),
        ("%g", [.scalar(0.25.bitPattern, byteCount: 8)], "0.25"),
        ("100%% done", [], "100% done"),
        ("%d and %d", [int(1)], "1 and <decode: missing data>"),
        ("%s", [.damaged("value range 10+4 outside the 8 bytes of data")], "<decode: value range 10+4 outside the 8 bytes of data>"),
        ("%{private, mask.hash}s", [.privateValue], "<private>"),
        ("%{public, name=count}d items", [int(3)], "3 items"),
        // A hashed value (item type 0xf2): the hash's bytes in base64; DE AD BE EF is "3q2+7w==".
        ("%{private, mask.hash}s", [.data([0xDE, 0xAD, 0xBE, 0xEF])], "<mask.hash: '3q2+7w=='>"),
        ("%{public, mask.hash}@", [.data([0xFB, 0xFF])], "<mask.hash: '+/8='>"),
        // Darwin sockaddrs: sockaddr_in 192.168.1.20 port 443 (0x01BB), sockaddr_in6 fe80::1
        // scope 4 port 8080 (0x1F90), a sockaddr_un path, and a family this does not know (hex).
        ("%{network:sockaddr}.*P", [.count(16), .data([16, 2, 0x01, 0xBB, 192, 168, 1, 20, 0, 0, 0, 0, 0, 0, 0, 0])], "192.168.1.20:443"),
        ("%{network:sockaddr}.*P", [.count(16), .data([16, 2, 0, 0, 10, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0])], "10.0.0.1"),
        ("%{network:sockaddr}.*P", [.count(28), .data([28, 30, 0x1F, 0x90, 0, 0, 0, 0, 0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 4, 0, 0, 0])], "[fe80::1%4]:8080"),
        ("%{sockaddr}.*P", [.count(12), .data([12, 1] + Array("/tmp/s.sock".utf8) + [0])], "/tmp/s.sock"),
        ("%{network:sockaddr}.*P", [.count(4), .data([4, 99, 1, 2])], "<04630102>"),
    ] as [(String, [FirehoseValue], String)])
    func rendersLikeLog(format: String, values: [FirehoseValue], expected: String) {
        #expect(MessageRenderer.render(format: format, values: values) == expected)
    }

    /// Widths and precisions from the file (found by the fuzzer): capped, not allocated.
    @Test func hostileWidthsAndPrecisionsAreCapped() {
        let wide = MessageRenderer.render(format: "%*d", values: [.count(Int(Int32.max)), Self.int(1)])
        #expect(wide.count == MessageRenderer.maximumFieldWidth)
        let precise = MessageRenderer.render(format: "%.*d", values: [.count(Int(Int32.max)), Self.int(1)])
        #expect(precise.count == MessageRenderer.maximumFieldWidth)
        let negative = MessageRenderer.render(format: "%*d|", values: [.count(Int(Int32.min)), Self.int(1)])
        #expect(negative.hasPrefix("1 ") && negative.hasSuffix(" |"))
        let long = MessageRenderer.render(format: String(repeating: "%4000d", count: 100), values: Array(repeating: Self.int(1), count: 100))
        #expect(long.hasSuffix("<decode: message cut at \(MessageRenderer.maximumMessageBytes) bytes>"))
        #expect(long.utf8.count < MessageRenderer.maximumMessageBytes + 100)
    }

    /// A masked value is a data item of type 0xf2 whose range holds the hash the device computed.
    @Test func maskedItemIsTheHashBytes() {
        let value = FirehoseValue.decode(type: 0xF2, inline: [2, 0, 4, 0], values: [0xAA, 0xBB, 0xDE, 0xAD, 0xBE, 0xEF], privateData: nil)
        #expect(value == .data([0xDE, 0xAD, 0xBE, 0xEF]))
        #expect(MessageRenderer.render(format: "account %{private, mask.hash}@", values: [value]) == "account <mask.hash: '3q2+7w=='>")
    }

    @Test func unknownConversionIsKeptAsWritten() {
        #expect(MessageRenderer.render(format: "100%k", values: []) == "100%k")
    }
}
