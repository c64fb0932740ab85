import CICU
import Synchronization

/// A `MATCHES` pattern run by ICU through its C API (`CICU`), for what the linear engine does not
/// cover. ICU backtracks; past `timeLimit` (or its 8 MB backtracking stack) it gives up, and this
/// says so (`Answer.undecided`) where NSRegularExpression would answer "no match".
final class ICURegex: Sendable {
    enum Answer: Equatable {
        case match, noMatch
        /// ICU gave up: U_REGEX_TIME_OUT or U_REGEX_STACK_OVERFLOW (its name).
        case undecided(String)
    }

    struct Failure: Error {
        var reason: String
    }

    /// uregex_setTimeLimit's units: steps of ICU's match engine, "on the order of milliseconds"
    /// each; a quarter to a half second per record on this machine's kind of CPU before ICU
    /// stops, far beyond what any reasonable pattern needs on a log message.
    static let timeLimit: Int32 = 100

    /// The expression as compiled, cloned for each thread that matches (a URegularExpression
    /// holds its text and position): spare clones are kept as addresses, for reuse.
    private let compiled: UInt
    private let spare = Mutex<[UInt]>([])

    init(pattern: String, caseInsensitive: Bool) throws(Failure) {
        var message = [CChar](repeating: 0, count: 512)
        guard cicu_load(&message, message.count) == 0 else {
            throw Failure(reason: "ICU (libicui18n.so.72, Debian's libicu72) could not be loaded: \(Self.string(message))")
        }
        let flags = UInt32(CICU_MULTILINE) | UInt32(CICU_DOTALL) | (caseInsensitive ? UInt32(CICU_CASE_INSENSITIVE) : 0)
        let utf16 = Array(pattern.utf16)
        var status: Int32 = 0
        guard let regex = utf16.withUnsafeBufferPointer({ cicu_open($0.baseAddress, Int32($0.count), flags, Self.timeLimit, &status) }) else {
            throw Failure(reason: "ICU refused it (\(String(cString: cicu_error_name(status))))")
        }
        compiled = UInt(bitPattern: regex)
    }

    deinit {
        for address in spare.withLock({ $0 }) { cicu_close(UnsafeMutableRawPointer(bitPattern: address)) }
        cicu_close(UnsafeMutableRawPointer(bitPattern: compiled))
    }

    /// Whether the expression is found in `text` (`\A…\z` patterns: whether all of it matches).
    func find(_ text: String) -> Answer {
        var status: Int32 = 0
        var address = spare.withLock { $0.popLast() }
        if address == nil {
            guard let copy = cicu_clone(UnsafeRawPointer(bitPattern: compiled), Self.timeLimit, &status) else {
                return .undecided(String(cString: cicu_error_name(status)))
            }
            address = UInt(bitPattern: copy)
        }
        let regex = UnsafeMutableRawPointer(bitPattern: address!)
        let utf16 = Array(text.utf16)
        let found = utf16.withUnsafeBufferPointer { cicu_find(regex, $0.baseAddress, Int32($0.count), &status) }
        spare.withLock { $0.append(address!) }
        switch found {
        case 1: return .match
        case 0: return .noMatch
        default: return .undecided(String(cString: cicu_error_name(status)))
        }
    }

    private static func string(_ characters: [CChar]) -> String {
        let bytes = characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
