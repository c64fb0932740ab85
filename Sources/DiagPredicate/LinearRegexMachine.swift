/// Runs a `LinearRegexProgram` over a text's scalars as a Thompson simulation: the set of
/// instructions alive after each scalar, each kept once, so a match costs at most
/// (instructions × scalars) steps whatever the pattern: no backtracking, nothing to give up.
/// Only whether the whole text matches is asked, so threads carry no captures or priorities.
struct LinearRegexMachine {
    let program: LinearRegexProgram

    /// Whether the whole of `text` (valid UTF-8) matches.
    func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(text.count)
        for scalar in String(decoding: text, as: UTF8.self).unicodeScalars { scalars.append(scalar.value) }
        return scalars.withUnsafeBufferPointer { matches(scalars: $0) }
    }

    func matches(scalars: UnsafeBufferPointer<UInt32>) -> Bool {
        let count = program.instructions.count
        var current = ThreadList(capacity: count)
        var next = ThreadList(capacity: count)
        var stack: [Int] = []
        var context = Context(text: scalars)
        addClosure(program.start, to: &current, stack: &stack, context: context)
        var position = 0
        while position < scalars.count {
            if current.count == 0 { return false }
            let scalar = scalars[position]
            context.advance(to: position + 1)
            next.clear()
            let lineFeedFollows = scalar == 0x0D && position + 1 < scalars.count && scalars[position + 1] == 0x0A
            for slot in 0..<current.count {
                switch program.instructions[current.dense[slot]] {
                case .consume(let set, let target):
                    if accepts(set, scalar) { addClosure(target, to: &next, stack: &stack, context: context) }
                case .dot(let target, let crlf):
                    addClosure(lineFeedFollows ? crlf : target, to: &next, stack: &stack, context: context)
                case .split, .assert, .match:
                    break
                }
            }
            swap(&current, &next)
            position += 1
        }
        for slot in 0..<current.count {
            if case .match = program.instructions[current.dense[slot]] { return true }
        }
        return false
    }

    @inline(__always)
    private func accepts(_ set: Int, _ scalar: UInt32) -> Bool {
        if scalar < 128 {
            let (low, high) = program.asciiAccepts[set]
            return scalar < 64 ? (low >> UInt64(scalar)) & 1 == 1 : (high >> UInt64(scalar - 64)) & 1 == 1
        }
        return program.classes[set].contains(scalar)
    }

    /// Adds `pc` and everything reachable from it without taking a scalar, at `context`'s position.
    private func addClosure(_ pc: Int, to list: inout ThreadList, stack: inout [Int], context: Context) {
        stack.append(pc)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            switch program.instructions[pc] {
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assert(let assertion, let target):
                if context.holds(assertion) { stack.append(target) }
            case .consume, .dot, .match:
                break
            }
        }
    }
}

/// A set of instruction indexes with insertion order, cleared in constant time (sparse set).
private struct ThreadList {
    var dense: [Int]
    var sparse: [Int]
    var count = 0

    init(capacity: Int) {
        dense = [Int](repeating: 0, count: capacity)
        sparse = [Int](repeating: 0, count: capacity)
    }

    mutating func clear() { count = 0 }

    /// False when `pc` is already there.
    @inline(__always)
    mutating func insert(_ pc: Int) -> Bool {
        let slot = sparse[pc]
        if slot < count && dense[slot] == pc { return false }
        sparse[pc] = count
        dense[count] = pc
        count += 1
        return true
    }
}

/// What the assertions look at, at one position of the text.
private struct Context {
    let text: UnsafeBufferPointer<UInt32>
    private(set) var position = 0
    /// Whether the last scalar before `position` that is not a combining mark or format
    /// character is a word character (ICU's `\b` looks back past those).
    private var lastBaseIsWord = false

    init(text: UnsafeBufferPointer<UInt32>) { self.text = text }

    mutating func advance(to newPosition: Int) {
        let scalar = text[newPosition - 1]
        if !LinearRegexProperties.isExtendOrFormat(scalar) { lastBaseIsWord = LinearRegexProperties.isWord(scalar) }
        position = newPosition
    }

    func holds(_ assertion: LinearRegexAssertion) -> Bool {
        let count = text.count
        let previous: UInt32? = position > 0 ? text[position - 1] : nil
        let current: UInt32? = position < count ? text[position] : nil
        switch assertion {
        case .textStart:
            return position == 0
        case .textEnd:
            return position == count
        case .lineStart:
            guard let previous else { return true }
            return current != nil && LinearRegexProperties.isLineTerminator(previous)
        case .lineEnd:
            guard let current else { return true }
            return LinearRegexProperties.isLineTerminator(current) && !(current == 0x0A && previous == 0x0D)
        case .textEndOrFinalTerminator:
            guard let current else { return true }
            if position == count - 1 {
                return LinearRegexProperties.isLineTerminator(current) && !(current == 0x0A && previous == 0x0D)
            }
            return position == count - 2 && current == 0x0D && text[position + 1] == 0x0A
        case .wordBoundary, .notWordBoundary:
            var boundary: Bool
            if let current, LinearRegexProperties.isExtendOrFormat(current) {
                boundary = false
            } else {
                let currentIsWord = current.map(LinearRegexProperties.isWord) ?? false
                boundary = currentIsWord != lastBaseIsWord
            }
            return assertion == .wordBoundary ? boundary : !boundary
        }
    }
}
