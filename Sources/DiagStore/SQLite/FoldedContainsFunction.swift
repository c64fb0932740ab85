import CSQLite
import DiagModel

/// `diag_folded_contains(message, needle)`: the scan path's message search, one SQL function
/// registered on every connection this process opens.
///
/// 1 when `message`, folded for case and diacritics as the search index folds it
/// (`MessageSearchIndex.fold`), contains `needle` (folded the same way by the caller); else 0.
/// Like the index it is a prefilter: the caller still decides each row it returns exactly.
///
/// An ASCII message is searched on its bytes, lowercasing as it goes: no copy, no allocation.
/// That replaced `instr(lower(m), ?) > 0 OR length(m) <> length(CAST(m AS BLOB))`, which copied
/// every message to lowercase it and handed every non-ASCII message (13 % of a generated store)
/// to Swift to fold again after SQLite had decoded its whole row; this folds only those.
enum FoldedContainsFunction {
    static let name = "diag_folded_contains"

    static func register(on connection: OpaquePointer) {
        TextFunction.register(name, arguments: 2, on: connection) { context, count, arguments in
            guard count == 2, let arguments else { return sqlite3_result_int(context, 0) }
            sqlite3_result_int(context, FoldedContainsFunction.evaluate(arguments[0], arguments[1]) ? 1 : 0)
        }
    }

    private static func evaluate(_ message: OpaquePointer?, _ needle: OpaquePointer?) -> Bool {
        guard sqlite3_value_type(needle) != SQLITE_NULL, sqlite3_value_type(message) != SQLITE_NULL else { return false }
        let needleBytes = TextFunction.bytes(needle)
        return contains(TextFunction.bytes(message), foldedNeedle: needleBytes)
    }

    /// Whether the message, folded, contains the folded needle: on the bytes while the message
    /// is ASCII. A byte that is not (or is NUL) sends the message through `TextFolding`, unless
    /// the needle is ASCII: then the search goes on in place, since folding keeps the message's
    /// ASCII bytes as they are, lowered (it is local between ASCII characters:
    /// `TextFolding.foldByRuns`), so a match among them is a match in the folded message; only
    /// a message where none is found is folded (another character may fold into the needle).
    /// Most log lines with a `…` or an `é` are so decided without a folded copy.
    static func contains(_ message: UnsafeBufferPointer<UInt8>, foldedNeedle needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        let count = message.count
        var index = 0
        var plain = true
        while index < count {
            let byte = message[index]
            if byte >= 0x80 || byte == 0 {
                if plain {
                    guard needle.allSatisfy({ $0 < 0x80 && $0 != 0 }) else { return foldedContains(message, needle) }
                    plain = false
                }
                index += 1
                continue
            }
            if lower(byte) == first, index + needle.count <= count {
                // With an ASCII needle, a byte of 0x80 or above (or NUL) never compares equal.
                var offset = 1
                while offset < needle.count, lower(message[index + offset]) == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return plain ? false : foldedContains(message, needle)
    }

    @inline(__always) private static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    private static func foldedContains(_ message: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        let folded = MessageSearchIndex.fold(String(decoding: message, as: UTF8.self))
        if let found = folded.utf8.withContiguousStorageIfAvailable({ find(needle, in: $0) }) { return found }
        return Array(folded.utf8).withUnsafeBufferPointer { find(needle, in: $0) }
    }

    private static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard needle.count <= haystack.count else { return false }
        guard let first = needle.first else { return true }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var offset = 1
                while offset < needle.count, haystack[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }
}
