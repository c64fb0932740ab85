// libFuzzer target for DiagAppleLog, the reader of Apple's unified logging files: tracev3 (with
// LZ4 chunk sets), timesync, uuidtext and dsc files, and message rendering from format strings.
// The first byte picks the reader; a trap, an ASan report or a hang is a finding.
import DiagAppleLog
import DiagModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard count > 0, let start else { return 0 }
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let body = Array(bytes.dropFirst())
    var limits = AppleLogLimits()
    limits.maximumChunkSetBytes = 1 << 20
    limits.maximumDecompressedBytesPerFile = 8 << 20
    switch bytes[0] % 5 {
    case 0:
        if let records = try? AppleLogArchive.records(ofTraceV3: body, name: "fuzz", limits: limits) {
            for record in records where record.eventMessage.utf8.count > limits.maximumMessageBytes * 4 {
                fatalError("a message of \(record.eventMessage.utf8.count) bytes from \(count) bytes of input")
            }
        }
    case 1:
        var database = TimesyncDatabase()
        if (try? database.add(bytes: body, name: "fuzz")) != nil {
            for boot in database.boots.keys { _ = database.wallClock(continuousTime: UInt64(count) << 40, boot: boot) }
        }
    case 2:
        if let text = try? UUIDTextFile(bytes: body, name: "fuzz") {
            for offset in stride(from: 0, to: UInt64(count) * 4, by: 7) { _ = text.string(at: offset) }
        }
    case 3:
        if let dsc = try? SharedCacheStrings(bytes: body, name: "fuzz") {
            for offset in stride(from: 0, to: UInt64(count) * 4, by: 7) { _ = dsc.string(at: offset) }
        }
    default:
        // A format string and values cut from the input: every specifier against any value.
        let split = body.firstIndex(of: 0) ?? body.count
        let format = String(decoding: body[..<split], as: UTF8.self)
        var values: [FirehoseValue] = []
        var index = split + 1
        while index + 9 <= body.count {
            var bits: UInt64 = 0
            for byte in body[(index + 1)..<(index + 9)].reversed() { bits = bits << 8 | UInt64(byte) }
            switch body[index] % 6 {
            case 0: values.append(.scalar(bits, byteCount: Int(body[index] / 6 % 8) + 1))
            case 1: values.append(.count(Int(Int32(truncatingIfNeeded: bits))))
            case 2: values.append(.string(String(decoding: body[(index + 1)..<(index + 9)], as: UTF8.self)))
            case 3: values.append(.data(Array(body[(index + 1)..<(index + 9)])))
            case 4: values.append(.privateValue)
            default: values.append(.string(nil))
            }
            index += 9
        }
        _ = MessageRenderer.render(format: format, values: values)
    }
    return 0
}
