import DiagIngest
import DiagModel
import Testing

@Suite struct OptionParsingTests {
    @Test func sizesTakeBinarySuffixes() {
        #expect(QuantityParsing.byteCount("4096") == 4096)
        #expect(QuantityParsing.byteCount("64K") == 64 << 10)
        #expect(QuantityParsing.byteCount("500M") == 500 << 20)
        #expect(QuantityParsing.byteCount("2GiB") == 2 << 30)
        #expect(QuantityParsing.byteCount("1t") == 1 << 40)
        for refused in ["", "M", "-5M", "0", "1.5G", "9999999999999T", "12X"] {
            #expect(QuantityParsing.byteCount(refused) == nil, "\(refused) should be refused")
        }
    }

    @Test func agesTakeUnits() {
        #expect(QuantityParsing.seconds("90") == 90)
        #expect(QuantityParsing.seconds("30m") == 1800)
        #expect(QuantityParsing.seconds("12h") == 43_200)
        #expect(QuantityParsing.seconds("7d") == 604_800)
        for refused in ["", "d", "-1d", "1w", "1.5h"] {
            #expect(QuantityParsing.seconds(refused) == nil, "\(refused) should be refused")
        }
    }

    @Test func modesReadLikeLogConfig() throws {
        #expect(try LevelMode.parse("level:debug,persist:info") == LevelMode(enabled: .debug, persisted: .info))
        #expect(try LevelMode.parse("persist:DEFAULT") == LevelMode(enabled: nil, persisted: .default))
        #expect(try LevelMode.parse("level:info").description == "level:info")
        for refused in ["", "level", "level:error", "keep:debug", "level:debug,", "level:debug;persist:info"] {
            #expect(throws: IngestError.self, "\(refused) should be refused") { try LevelMode.parse(refused) }
        }
    }
}
