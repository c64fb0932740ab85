/// Decimal digits of an integer, appended without an intermediate `String`: for the hot paths
/// that write numbers into byte buffers (RFC 5424 lines, the ids a message search leaves).
public enum Digits {
    /// Appends `value` as `String(value)` writes it, with a `-` for a negative value.
    public static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { raw in
            var position = raw.count
            repeat {
                position -= 1
                raw[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[position...]))
        }
    }
}
