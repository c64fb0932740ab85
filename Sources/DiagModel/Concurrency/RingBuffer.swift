/// A first-in first-out queue in one array used as a ring: taking the first element is O(1) and
/// lets go of it at once (an array's `removeFirst` moves every other element; a head index over
/// a plain array would keep taken elements alive).
struct RingBuffer<Element> {
    private var slots: [Element?] = []
    private var head = 0
    private(set) var count = 0

    mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[(head + count) % slots.count] = element
        count += 1
    }

    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head].take()
        head = (head + 1) % slots.count
        count -= 1
        return element
    }

    mutating func removeAll() {
        slots = []
        head = 0
        count = 0
    }

    /// Doubles the slots, the elements moved to the start in order.
    private mutating func grow() {
        var larger = [Element?](repeating: nil, count: max(4, slots.count * 2))
        for offset in 0..<count { larger[offset] = slots[(head + offset) % slots.count].take() }
        slots = larger
        head = 0
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
