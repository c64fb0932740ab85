/// LZ4 block decompression (the raw block format of lz4's `LZ4_decompress_safe`), written here
/// rather than linked from liblz4: tracev3 chunk sets are one block each of at most a few
/// hundred KiB, the decoder is sixty lines, and keeping it in Swift keeps the reader free of a
/// C library that `diag` would load on every start. Every length and offset is checked before
/// it is used, and the output never grows past the size the caller expects.
public enum LZ4Block {
    /// Appends the decompressed `input` to `output`, which may already hold earlier blocks of
    /// the same stream (matches may reach back into them, as Apple's `bv41` streams allow).
    /// Exactly `expectedSize` bytes must come out.
    public static func decompress(
        _ input: ArraySlice<UInt8>, expectedSize: Int, into output: inout [UInt8], context: String
    ) throws(AppleLogError) {
        let limit = output.count + expectedSize
        output.reserveCapacity(limit)
        var index = input.startIndex
        let end = input.endIndex
        func fail(_ what: String) -> AppleLogError {
            AppleLogError("\(context): LZ4 block is damaged: \(what) at input byte \(index - input.startIndex) of \(input.count)")
        }
        /// A length continued by 255-valued bytes.
        func extendedLength(_ base: Int) throws(AppleLogError) -> Int {
            var length = base
            guard base == 15 else { return length }
            while true {
                guard index < end else { throw fail("length runs past the end") }
                let byte = input[index]
                index += 1
                length += Int(byte)
                guard length <= limit else { throw fail("length \(length) exceeds the declared size \(expectedSize)") }
                if byte != 255 { return length }
            }
        }
        while true {
            guard index < end else { throw fail("missing token") }
            let token = input[index]
            index += 1
            let literals = try extendedLength(Int(token >> 4))
            guard literals <= end - index else { throw fail("\(literals) literal bytes, only \(end - index) remain") }
            guard output.count + literals <= limit else { throw fail("output would exceed the declared size \(expectedSize)") }
            output.append(contentsOf: input[index..<(index + literals)])
            index += literals
            if index == end { break }
            guard end - index >= 2 else { throw fail("truncated match offset") }
            let distance = Int(input[index]) | Int(input[index + 1]) << 8
            index += 2
            guard distance > 0, distance <= output.count else {
                throw fail("match offset \(distance) reaches before the start of the output (\(output.count) bytes)")
            }
            let length = try extendedLength(Int(token & 0x0F)) + 4
            guard output.count + length <= limit else { throw fail("output would exceed the declared size \(expectedSize)") }
            var from = output.count - distance
            for _ in 0..<length {
                output.append(output[from])
                from += 1
            }
        }
        guard output.count == limit else {
            throw AppleLogError("\(context): LZ4 block decompressed to \(output.count - (limit - expectedSize)) bytes, its header says \(expectedSize)")
        }
    }
}
