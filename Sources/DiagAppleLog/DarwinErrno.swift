/// Darwin's error numbers and messages, which differ from Linux's past 34 (EAGAIN is 35 on a
/// Mac, 11 here): the `%m` and `%{errno}d` of a log written on a Mac read with Darwin's table.
enum DarwinErrno {
    static let messages: [String] = [
        "Undefined error: 0", "Operation not permitted", "No such file or directory", "No such process",
        "Interrupted system call", "Input/output error", "Device not configured", "Argument list too long",
        "Exec format error", "Bad file descriptor", "No child processes", "Resource deadlock avoided",
        "Cannot allocate memory", "Permission denied", "Bad address", "Block device required", "Resource busy",
        "File exists", "Cross-device link", "Operation not supported by device", "Not a directory", "Is a directory",
        "Invalid argument", "Too many open files in system", "Too many open files", "Inappropriate ioctl for device",
        "Text file busy", "File too large", "No space left on device", "Illegal seek", "Read-only file system",
        "Too many links", "Broken pipe", "Numerical argument out of domain", "Result too large",
        "Resource temporarily unavailable", "Operation now in progress", "Operation already in progress",
        "Socket operation on non-socket", "Destination address required", "Message too long",
        "Protocol wrong type for socket", "Protocol not available", "Protocol not supported",
        "Socket type not supported", "Operation not supported", "Protocol family not supported",
        "Address family not supported by protocol family", "Address already in use", "Can't assign requested address",
        "Network is down", "Network is unreachable", "Network dropped connection on reset",
        "Software caused connection abort", "Connection reset by peer", "No buffer space available",
        "Socket is already connected", "Socket is not connected", "Can't send after socket shutdown",
        "Too many references: can't splice", "Operation timed out", "Connection refused",
        "Too many levels of symbolic links", "File name too long", "Host is down", "No route to host",
        "Directory not empty", "Too many processes", "Too many users", "Disc quota exceeded", "Stale NFS file handle",
    ]

    static func message(_ number: Int) -> String {
        number >= 0 && number < messages.count ? messages[number] : "Unknown error: \(number)"
    }
}

/// Darwin's signal names for `%{darwin.signal}d`: `[sigsegv: Segmentation fault]`.
enum DarwinSignal {
    static let names: [(String, String)] = [
        ("sighup", "Hangup"), ("sigint", "Interrupt"), ("sigquit", "Quit"), ("sigill", "Illegal instruction"),
        ("sigtrap", "Trace/BPT trap"), ("sigabrt", "Abort trap"), ("sigemt", "EMT trap"),
        ("sigfpe", "Floating point exception"), ("sigkill", "Killed"), ("sigbus", "Bus error"),
        ("sigsegv", "Segmentation fault"), ("sigsys", "Bad system call"), ("sigpipe", "Broken pipe"),
        ("sigalrm", "Alarm clock"), ("sigterm", "Terminated"), ("sigurg", "Urgent I/O condition"),
        ("sigstop", "Suspended (signal)"), ("sigtstp", "Suspended"), ("sigcont", "Continued"),
        ("sigchld", "Child exited"), ("sigttin", "Stopped (tty input)"), ("sigttou", "Stopped (tty output)"),
        ("sigio", "I/O possible"), ("sigxcpu", "Cputime limit exceeded"), ("sigxfsz", "Filesize limit exceeded"),
        ("sigvtalrm", "Virtual timer expired"), ("sigprof", "Profiling timer expired"),
        ("sigwinch", "Window size changes"), ("siginfo", "Information request"),
        ("sigusr1", "User defined signal 1"), ("sigusr2", "User defined signal 2"),
    ]

    static func describe(_ number: Int) -> String {
        guard number >= 1, number <= names.count else { return "[\(number): Unknown signal]" }
        let (name, message) = names[number - 1]
        return "[\(name): \(message)]"
    }
}
