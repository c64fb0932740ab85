import DiagClient
import DiagCommandLine

/// Progress lines for people, kept off stdout (which carries `KEY=value` results).
public enum StandardError {
    public static func write(_ text: String) {
        StandardStream.error.write(text)
    }
}

/// `--fault throttle|push-lost|corrupt-attachment|slow-import`.
extension DemoFault: ExpressibleByArgument {}

/// What every component does before it exits: wait until diagd has committed its records.
public enum ComponentExit {
    /// Flushes the logs; a failure is reported on stderr (the work itself is already done).
    public static func flushLogs(component: String) -> Bool {
        do {
            try LogTransport.shared.flush(timeout: 10)
            return true
        } catch {
            StandardError.write("\(component): could not flush logs to diagd: \(error)\n")
            return false
        }
    }
}
