/// A value that is not `Sendable` handed from one thread to another that alone uses it from then
/// on: a snapshot chunk's SQLite connections passed from the copying thread to the archiving
/// one, a batch of frames from the reading thread to the delivering one. The compiler cannot
/// follow such a hand-over through a channel or a `Mutex`'s state; this box is where it is
/// asserted, so that it is written once and found by its name. Whoever boxes a value must not
/// touch it (nor anything it shares) afterwards.
public struct Transferred<Value>: @unchecked Sendable {
    public let value: Value

    /// Boxes a value the compiler can see is no longer used here (`sending`).
    public init(_ value: sending Value) {
        self.value = value
    }

    /// Boxes a value the compiler cannot follow (a parameter of a callback whose type does not
    /// say `sending`): the caller asserts that it lets go of it.
    public init(handingOver value: Value) {
        self.value = value
    }
}
