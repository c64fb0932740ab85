/// The longest lines of diagd's protocol (docs/PROTOCOL.md "Lines"), named once for both sides:
/// diagd frames requests with `request` and clients read replies with `reply`.
public enum LineBounds {
    /// A client's line (a record or a request), newline excluded: diagd refuses a longer one
    /// with `{"error": …, "line": N}` and goes on with the next line.
    public static let request = 1 << 20
    /// A reply line a client reads: a ring or stream record is a client's line of at most
    /// `request` bytes, written again with the fields diagd stamps on it, so four times that.
    public static let reply = 4 * request

    /// `request` as docs and errors say it: "1048576 bytes (1 MiB)".
    public static var requestText: String { "\(request) bytes (\(request >> 20) MiB)" }
}
