import DiagCommandLine

/// Progress lines for people, kept off stdout (which carries `KEY=value` results).
public enum StandardError {
    public static func write(_ text: String) {
        StandardStream.error.write(text)
    }
}

/// `--fault throttle|push-lost|corrupt-attachment|slow-import`.
extension DemoFault: ExpressibleByArgument {}
