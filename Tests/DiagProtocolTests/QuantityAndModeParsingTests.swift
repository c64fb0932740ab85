import DiagModel
import DiagProtocol
import Testing

/// The one reader of sizes and durations (diagd's options, diag collect --size, --last,
/// $DIAG_UNPACK_LIMIT) and of level modes (diagd's config requests, diag config --mode).
@Suite struct QuantityAndModeParsingTests {
    @Test func sizesTakeBinarySuffixesInAnyCase() {
        #expect(QuantityParsing.byteCount("4096") == 4096)
        #expect(QuantityParsing.byteCount("64K") == 64 << 10)
        #expect(QuantityParsing.byteCount("500M") == 500 << 20)
        #expect(QuantityParsing.byteCount("2GiB") == 2 << 30)
        #expect(QuantityParsing.byteCount("1t") == 1 << 40)
        #expect(QuantityParsing.byteCount(" 20m ") == 20 << 20)
        #expect(QuantityParsing.byteCount("10B") == 10)
        #expect(QuantityParsing.byteCount("8388607T") == 8_388_607 << 40)
    }

    @Test(arguments: ["", " ", "M", "B", "-5M", "+5M", "0", "0K", "1.5G", "8388608T", "9999999999999T",
                      "99999999999999999999", "12X", "1 M", "٣K", "1e3", "K1"])
    func sizesOutsideTheFormAreRefused(text: String) {
        #expect(QuantityParsing.byteCount(text) == nil, "'\(text)' should be refused")
    }

    @Test func durationsTakeUnitsInAnyCase() {
        #expect(QuantityParsing.seconds("90") == 90)
        #expect(QuantityParsing.seconds("30m") == 1800)
        #expect(QuantityParsing.seconds("30M") == 1800)
        #expect(QuantityParsing.seconds("12h") == 43_200)
        #expect(QuantityParsing.seconds("7d") == 604_800)
        #expect(QuantityParsing.seconds(" 45s ") == 45)
    }

    @Test(arguments: ["", "d", "-1d", "+1d", "0", "0s", "1w", "1.5h", "106751991167301d", "99999999999999999999", "٣s", "1 d"])
    func durationsOutsideTheFormAreRefused(text: String) {
        #expect(QuantityParsing.seconds(text) == nil, "'\(text)' should be refused")
    }

    @Test func modesReadLikeLogConfig() throws {
        #expect(try LevelMode.parse("level:debug,persist:info") == LevelMode(enabled: .debug, persisted: .info))
        #expect(try LevelMode.parse("persist:DEFAULT") == LevelMode(enabled: nil, persisted: .default))
        #expect(try LevelMode.parse("level:info").description == "level:info")
        #expect(try LevelMode.parse(LevelMode.systemDefault.description) == .systemDefault)
    }

    @Test(arguments: [
        ("", "empty mode"),
        ("level", "mode part 'level' is not KEY:LEVEL"),
        ("level:error", "unknown level 'error' in 'level:error'; accepted: debug, info or default"),
        ("keep:debug", "unknown mode key 'keep' in 'keep:debug'; accepted keys: level, persist"),
        ("level:debug,", "mode part '' is not KEY:LEVEL"),
        ("level:debug;persist:info", "unknown level 'debug;persist:info'"),
    ])
    func badModesAreRefusedWithTheReason(text: String, reason: String) {
        do {
            let mode = try LevelMode.parse(text)
            Issue.record("'\(text)' accepted as \(mode.description)")
        } catch {
            #expect(error.description.contains(reason), "\(text): \(error.description)")
        }
    }
}
