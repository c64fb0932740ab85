import DiagModel

/// RFC 5424 escaping on the shared `ByteWriter` (DiagModel), for the frame encoder.
extension ByteWriter {
    /// An RFC 5424 SD value: `"`, `\` and `]` take a backslash (§6.3.3).
    mutating func appendEscaped(_ value: UnsafeBufferPointer<UInt8>) {
        appendEscaped(value, hasSpecial: ByteScan(value).hasSDSpecial)
    }

    /// The same, `hasSpecial` telling whether `value` holds a byte to escape (`ByteScan`).
    mutating func appendEscaped(_ value: UnsafeBufferPointer<UInt8>, hasSpecial: Bool) {
        guard hasSpecial else {
            append(value)
            return
        }
        reserve(value.count * 2)
        for byte in value {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "]") {
                base[count] = UInt8(ascii: "\\")
                count += 1
            }
            base[count] = byte
            count += 1
        }
    }
}
