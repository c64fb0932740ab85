import Foundation
@testable import DiagAppleLog
import TestSupport

/// A log archive written by the test from the documented structures, with known content: one
/// process logging every kind of tracepoint, in a compressed and a stored chunk set.
struct SyntheticArchive {
    let directory: TemporaryDirectory
    let writer = TraceV3Writer()
    var path: String { directory.url.appendingPathComponent("device.logarchive").path }
    var tracePath: String { path + "/Persist/0000000000000001.tracev3" }

    static let formats = [
        "%{public}s has %d items (%{private}s) %u %x",
        "Beginning sync",
        "upload %{public}s",
        "interval",
        "done %{bool}d %{BOOL}d %{time_t}d %{errno}d %5.2s|%-4d|%04d|%@",
        "trace %d",
        "%s after backtrace",
    ]
    static let mainStart: UInt32 = 0x100
    static let oversizePayload = String(repeating: "0123456789", count: 120)
    /// Wall clock (ns) of the sync record at the chunk's base time.
    static let syncWall: Int64 = 1_800_000_000_000_000_000
    static let baseTime: UInt64 = 24_000_000

    init(withTimesync: Bool = true) throws {
        directory = try TemporaryDirectory("apple-archive")
        let root = directory.url.appendingPathComponent("device.logarchive")
        let (mainStrings, offsets) = AppleFileWriter.strings(Self.formats)
        func put(_ relative: String, _ bytes: [UInt8]) throws {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        try put("Info.plist", Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>".utf8))
        try put("AB/414C1EC0233A05AF22029CC5E160EA", AppleFileWriter.uuidText(ranges: [(Self.mainStart, mainStrings)], imagePath: "/usr/libexec/syncd"))
        try put("01/02030405060708090A0B0C0D0E0F10", AppleFileWriter.uuidText(ranges: [(0x10, Array("library says hi\0".utf8))], imagePath: "/usr/lib/libsync.dylib"))
        try put("dsc/2576AD2587533C119308541E6149A88D", AppleFileWriter.sharedCache(version: 2, images: [
            (AppleUUID(high: 0xCAFE, low: 0xF00D), "/System/Library/Frameworks/CoreData.framework/CoreData", 0x5000, Array("cache says %s\0".utf8)),
        ]))
        if withTimesync {
            try put("timesync/0000000000000001.timesync", AppleFileWriter.timesync(
                boot: writer.bootUUID, numerator: 125, denominator: 3, bootTime: Self.syncWall - 1_000_000_000_000,
                syncs: [(Self.baseTime, Self.syncWall)]))
        }
        let format = { (index: Int) in Self.mainStart + offsets[index] }
        let first = writer.firehose(baseTime: Self.baseTime, tracepoints: Self.firstTracepoints(format), privateData: Array("alice\0".utf8) + [0, 0])
            + writer.stateDump(time: Self.baseTime + 3000, activity: 0x77, title: "sync state", text: "pending=2")
            + writer.simpleDump(time: Self.baseTime + 3240, thread: 0x99, subsystem: "com.apple.simple", message: "a simple dump")
        let second = writer.firehose(baseTime: Self.baseTime + 10_000, tracepoints: Self.secondTracepoints(format))
            + writer.oversize(reference: 5, time: Self.baseTime + 720, items: Self.items([(0x22, Self.oversizePayload + "\0")]))
        var file = writer.header() + writer.catalog(chunkSetSizes: [first.count, second.count])
        file += try writer.chunkSet(first, compressed: true)
        file += try writer.chunkSet(second, compressed: false)
        try put("Persist/0000000000000001.tracev3", file)
    }

    /// `unknown, count, items, values` with string values laid out in order.
    static func items(_ list: [(type: UInt8, value: Any)]) -> [UInt8] {
        var head = LEBytes(), values = LEBytes()
        head.u8(0)
        head.u8(UInt8(list.count))
        for (type, value) in list {
            head.u8(type)
            if let text = value as? String {
                head.u8(4)
                head.u16(UInt16(values.data.count)); head.u16(UInt16(text.utf8.count))
                values.bytes(Array(text.utf8))
            } else if let range = value as? (Int, Int) {
                head.u8(4); head.u16(UInt16(range.0)); head.u16(UInt16(range.1))
            } else if let number = value as? UInt64 {
                head.u8(8); head.u64(number)
            } else if let number = value as? UInt32 {
                head.u8(4); head.u32(number)
            }
        }
        return head.data + values.data
    }

    static func data(_ build: (inout LEBytes) -> Void) -> [UInt8] {
        var bytes = LEBytes()
        build(&bytes)
        return bytes.data
    }

    static func firstTracepoints(_ format: (Int) -> UInt32) -> [TraceV3Writer.Tracepoint] {
        [
            // Error with activity, private data range, subsystem: the first format.
            .init(logType: 0x10, flags: 0x0303, format: format(0), delta: 240, data: data { d in
                d.u32(0x77); d.u32(0x8000_0000)
                d.u16(0x1000 - 8); d.u16(6)
                d.u32(0x100); d.u16(1)
                d.bytes(items([(0x22, "cart\0"), (0x00, UInt32(3)), (0x21, (0, 6)), (0x00, UInt32(7)), (0x00, UInt32(255))]))
            }),
            // Activity create: current 0x77, new 0x99.
            .init(recordType: 0x02, logType: 0x01, flags: 0x0003, format: format(1), delta: 480, data: data { d in
                d.u32(0x77); d.u32(0x8000_0000); d.u32(0x99); d.u32(0x8000_0000); d.u32(0x200)
            }),
            // Log whose argument is in an oversize chunk (reference 5, in the next chunk set).
            .init(logType: 0x01, flags: 0x0802, format: format(2), delta: 720, data: data { d in
                d.u32(0x300); d.u16(5); d.u8(0); d.u8(0)
            }),
            // Signpost: process scope, interval begin, with a name.
            .init(recordType: 0x06, logType: 0x81, flags: 0x8202, format: format(3), delta: 960, data: data { d in
                d.u32(0x400); d.u16(1); d.u64(0xABCDEF); d.u32(format(3)); d.u8(0); d.u8(0)
            }),
            // Shared cache format string.
            .init(logType: 0x02, flags: 0x0004, format: 0x5000, delta: 1200, data: data { d in
                d.u32(0x500); d.bytes(items([(0x22, "from dsc\0")]))
            }),
            // uuid_relative: the library's own uuidtext.
            .init(flags: 0x000a, format: 0x10, delta: 1440, data: data { d in
                d.u32(0x600); d.uuid(TraceV3Writer().libraryUUID); d.u8(0); d.u8(0)
            }),
            // A format string the uuidtext file does not hold: kept, with its value.
            .init(logType: 0x11, flags: 0x0202, format: 0x9999, delta: 1680, data: data { d in
                d.u32(0x700); d.u16(1); d.bytes(items([(0x00, UInt32(42))]))
            }),
            // Decoders, width, precision.
            .init(flags: 0x0002, format: format(4), delta: 1920, data: data { d in
                d.u32(0x800)
                d.bytes(items([(0x00, UInt32(1)), (0x00, UInt32(0)), (0x00, UInt64(1_700_000_000)), (0x00, UInt32(35)),
                               (0x22, "abcdef\0"), (0x00, UInt32(7)), (0x00, UInt32(42)), (0x42, "obj\0")]))
            }),
        ]
    }

    static func secondTracepoints(_ format: (Int) -> UInt32) -> [TraceV3Writer.Tracepoint] {
        [
            .init(recordType: 0x03, flags: 0x0002, format: format(5), delta: 100, data: data { d in
                d.u32(0x900); d.u32(9); d.u8(4); d.u8(1)
            }),
            .init(recordType: 0x07, flags: 0, format: 0, delta: 200, data: data { d in
                d.u64(Self.baseTime); d.u64(Self.baseTime + 3); d.u64(3)
            }),
            // Backtrace before the values: one image, one frame; the string's offset counts it.
            .init(flags: 0x1002, format: format(6), delta: 300, data: data { d in
                d.u32(0xA00); d.u8(0); d.u8(1); d.u8(0x22); d.u8(4); d.u16(28); d.u16(3)
                d.bytes([0x01, 0x00, 0x12, 1, 1, 0]); d.uuid(TraceV3Writer().libraryUUID); d.u32(0x1234); d.u8(0); d.bytes([0])
                d.bytes(Array("bt\0".utf8))
            }),
        ]
    }
}
