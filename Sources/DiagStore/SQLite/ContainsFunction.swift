import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// `diag_contains(text, needle)`: whether `text` holds `needle` byte for byte, the chunks' SQL
/// dialect's test for a literal run (`SQLiteDialect.containsText`), one SQL function registered
/// on every connection this process opens. 1 or 0, NULL when either argument is NULL: what
/// `instr(text, needle) > 0` gives, without `instr`'s call of `memcmp` at every character of the
/// text (`contains` says how).
enum ContainsFunction {
    static let name = "diag_contains"

    static func register(on connection: OpaquePointer) {
        TextFunction.register(name, arguments: 2, on: connection) { context, count, arguments in
            guard count == 2, let arguments,
                  sqlite3_value_type(arguments[0]) != SQLITE_NULL, sqlite3_value_type(arguments[1]) != SQLITE_NULL
            else { return sqlite3_result_null(context) }
            let text = TextFunction.bytes(arguments[0])
            let needle = TextFunction.bytes(arguments[1])
            sqlite3_result_int(context, ContainsFunction.contains(text.baseAddress, text.count, needle.baseAddress, needle.count) ? 1 : 0)
        }
    }

    /// Whether the `textCount` bytes at `text` hold the `needleCount` bytes at `needle`; an empty
    /// needle is in every text (as `instr` finds it at 1). The needle's first byte is looked for
    /// with `memchr` (vectorised in glibc) and the rest compared where it is: glibc's `memmem`
    /// fills a shift table at each call, which cost more than the search in messages of a
    /// hundred bytes (10 % of a `MATCHES` scan's samples, against `instr`'s 12 %).
    static func contains(_ text: UnsafePointer<UInt8>?, _ textCount: Int, _ needle: UnsafePointer<UInt8>?, _ needleCount: Int) -> Bool {
        guard needleCount > 0 else { return true }
        guard let text, let needle, needleCount <= textCount else { return false }
        let first = Int32(needle[0])
        let rest = needleCount - 1
        var start = text
        // Positions where the needle may still begin: up to textCount - needleCount.
        var remaining = textCount - needleCount + 1
        while remaining > 0 {
            guard let found = memchr(start, first, remaining) else { return false }
            let hit = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
            if rest == 0 || memcmp(hit + 1, needle + 1, rest) == 0 { return true }
            let skipped = hit - start + 1
            start = hit + 1
            remaining -= skipped
        }
        return false
    }
}
