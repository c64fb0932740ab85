import Synchronization

/// A `Mutex` that guards fields of the class holding it rather than a value of its own: for
/// state that holds non-`Sendable` values (SQLite connections, raw buffers), which the `sending`
/// rules of `Mutex<State>`'s closure would not let in and out. Where the state is `Sendable`,
/// use `Mutex<State>` itself; a class using this one stays `@unchecked Sendable`, and says
/// which fields it guards.
public struct FieldLock: ~Copyable, Sendable {
    private let mutex = Mutex(())

    public init() {}

    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try mutex.withLock { (_) throws(Failure) -> Result in try body() }
    }
}
