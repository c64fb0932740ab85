// libFuzzer target for diagd's syslog readers, which take bytes from any local process (the
// datagram socket) and from the network (`--syslog-tcp`): the stream framer (RFC 6587), the
// general parser (RFC 5424 and RFC 3164, `SyslogParser`, `SyslogMessage.record`) and the row
// reader that packs both straight into rows (`SyslogRowReader`). A trap, an ASan report or a
// disagreement is a finding:
// - the framer gives the same frames, the same end (an error or not, a partial frame or not)
//   however the stream is cut into reads, and at a small maximum length as at the default;
// - where the row reader takes a message (the input as one datagram, and each frame), its row
//   is byte for byte the general way's, over TCP and over the datagram socket with and without
//   the kernel's identity; where the general way refuses one, the row reader declines it; a
//   message the level settings drop appends nothing.
import DiagModel

private let receiptTime: Int64 = 1_795_945_200_123_456_789
private let identity = PeerIdentity(
    processID: 4242, userID: 501, groupID: 20, process: "sync-agent", processImagePath: "/usr/libexec/sync-agent")
private let peers: [(peer: String?, identity: PeerIdentity?)] = [("127.0.0.1:50514", nil), (nil, identity), (nil, nil)]
/// Kept from input to input, as diagd keeps one for each read of a connection: what a message
/// leaves in its scratch must not reach the next one's row.
nonisolated(unsafe) private var reader = SyslogRowReader()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = count == 0 ? [] : Array(UnsafeRawBufferPointer(start: start, count: count))
    compareRows(bytes)
    let whole = frames(bytes, reads: [bytes.count], maximumLength: 64 << 10)
    for frame in whole.frames { compareRows(frame) }
    // The same stream cut into reads of a length the input picks, and byte by byte.
    let step = 1 + Int(bytes.first ?? 0) % 23
    let cuts = Array(repeating: step, count: bytes.count / step + 1)
    sameFrames(whole, frames(bytes, reads: cuts, maximumLength: 64 << 10), "reads of \(step) bytes")
    if bytes.count <= 512 {
        sameFrames(whole, frames(bytes, reads: Array(repeating: 1, count: bytes.count), maximumLength: 64 << 10), "byte by byte")
    }
    // A small maximum length, to reach the framer's limits.
    let small = frames(bytes, reads: [bytes.count], maximumLength: 40)
    sameFrames(small, frames(bytes, reads: cuts, maximumLength: 40), "reads of \(step) bytes, maximum 40")
    return 0
}

private struct Framed {
    var frames: [[UInt8]] = []
    var failed = false
    var partial = false
}

/// The frames of `bytes` fed in reads of the given lengths, up to the error that ends the stream.
private func frames(_ bytes: [UInt8], reads: [Int], maximumLength: Int) -> Framed {
    var framer = SyslogStreamFramer(maximumLength: maximumLength)
    var result = Framed()
    var offset = 0
    for length in reads where offset < bytes.count {
        let end = min(bytes.count, offset + length)
        let failure = bytes[offset..<end].withUnsafeBytes { read in
            framer.feed(read) { frame in
                guard frame.count <= maximumLength else { fatalError("a frame of \(frame.count) bytes, over the maximum \(maximumLength)") }
                result.frames.append(Array(frame))
            }
        }
        offset = end
        if failure != nil {
            result.failed = true
            break
        }
    }
    result.partial = framer.hasPartialFrame
    return result
}

private func sameFrames(_ a: Framed, _ b: Framed, _ how: String) {
    guard a.frames == b.frames else { fatalError("the framer gave other frames for \(how): \(a.frames.count) against \(b.frames.count)") }
    guard a.failed == b.failed else { fatalError("the framer failed in one way only (\(how))") }
    guard a.failed || a.partial == b.partial else { fatalError("a partial frame in one way only (\(how))") }
}

/// The row reader against the general way, for one message, as `SyslogRowReaderTests` does.
private func compareRows(_ message: [UInt8]) {
    for (peer, identity) in peers {
        let transport: StaticString = peer == nil ? "unix" : "tcp"
        let general: [UInt8]? = {
            guard let parsed = try? SyslogParser.parse(message) else { return nil }
            var record = parsed.record(peer: identity, receiptTime: receiptTime, transport: peer == nil ? "unix" : "tcp")
            if let peer { record.metadata?["syslogPeer"] = JSONValue.string(peer) }
            return PackedRecords([record]).bytes
        }()
        var packed = PackedRecords()
        let taken = message.withUnsafeBytes { bytes in
            reader.read(bytes, receiptTime: receiptTime, transport: transport, peer: peer, identity: identity, into: &packed) { _, _, _ in true }
        }
        if taken {
            guard let general else { fatalError("the row reader took a message the general way refuses") }
            guard packed.bytes == general else { fatalError("the row reader's row differs from the general way's") }
        } else if !packed.isEmpty {
            fatalError("the row reader declined a message but appended to the rows")
        }
        // Dropped by the level settings: nothing appended, whatever the message.
        var dropped = PackedRecords()
        _ = message.withUnsafeBytes { bytes in
            reader.read(bytes, receiptTime: receiptTime, transport: transport, peer: peer, identity: identity, into: &dropped) { _, subsystem, category in
                _ = subsystem()
                _ = category()
                return false
            }
        }
        guard dropped.isEmpty else { fatalError("a message the level settings drop was appended") }
    }
}
