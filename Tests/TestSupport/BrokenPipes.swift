import Glibc

/// Tests write to pipes and FIFOs read by the `diag` they started; a `diag` that refuses its
/// input and exits early must fail that test with EPIPE, not end the whole test process with
/// SIGPIPE (signal 13 ended a full run on a damaged-stream test). Children do not inherit this:
/// Foundation's `Process` resets every signal to its default in the child.
public enum BrokenPipes {
    private static let ignored: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()

    /// Makes a write to a pipe with no reader return EPIPE in this process; idempotent.
    public static func ignoreInThisProcess() {
        _ = ignored
    }
}
