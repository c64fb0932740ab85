/// A `LinearRegexNode` compiled to a Thompson NFA: the instructions `LinearRegexMachine` runs.
/// Counted repetitions are expanded (`a{2,4}` is `aa(a(a)?)?`), so a pattern's size is bounded
/// here (`instructionLimit`): a larger pattern is refused, never run slowly.
struct LinearRegexProgram: Sendable {
    enum Instruction: Sendable {
        /// One scalar of `classes[set]`, then `next`.
        case consume(set: Int, next: Int)
        /// ICU's `.`: one scalar, then `next`; a CR before an LF goes on to `crlf`, which takes the LF.
        case dot(next: Int, crlf: Int)
        case split(Int, Int)
        case assert(LinearRegexAssertion, next: Int)
        case match
    }

    /// The most instructions a pattern may compile to: matching costs at most this many steps
    /// per character of text.
    static let instructionLimit = 10_000

    struct TooLarge: Error {
        var instructions: Int
    }

    private(set) var instructions: [Instruction] = []
    private(set) var classes: [LinearRegexClass] = []
    private(set) var start = 0
    /// For each class, which ASCII scalars it accepts (bit b of word b / 64).
    private(set) var asciiAccepts: [(UInt64, UInt64)] = []
    private(set) var hasAssertions = false

    init(_ node: LinearRegexNode) throws(TooLarge) {
        instructions.append(.match)
        start = try compile(node, next: 0)
        asciiAccepts = classes.map { set in
            var low: UInt64 = 0, high: UInt64 = 0
            for scalar in UInt32(0)..<128 where set.contains(scalar) {
                if scalar < 64 { low |= 1 << UInt64(scalar) } else { high |= 1 << UInt64(scalar - 64) }
            }
            return (low, high)
        }
    }

    private mutating func emit(_ instruction: Instruction) throws(TooLarge) -> Int {
        guard instructions.count < Self.instructionLimit else { throw TooLarge(instructions: instructions.count + 1) }
        instructions.append(instruction)
        return instructions.count - 1
    }

    private mutating func classIndex(_ set: LinearRegexClass) -> Int {
        if let index = classes.firstIndex(of: set) { return index }
        classes.append(set)
        return classes.count - 1
    }

    /// Compiles `node` to run before `next`; returns its entry.
    private mutating func compile(_ node: LinearRegexNode, next: Int) throws(TooLarge) -> Int {
        switch node {
        case .empty:
            return next
        case .scalar(let set):
            return try emit(.consume(set: classIndex(set), next: next))
        case .dot:
            let lineFeed = try emit(.consume(set: classIndex(.literal(0x0A, caseInsensitive: false)), next: next))
            return try emit(.dot(next: next, crlf: lineFeed))
        case .assertion(let assertion):
            hasAssertions = true
            return try emit(.assert(assertion, next: next))
        case .concatenation(let items):
            var entry = next
            for item in items.reversed() { entry = try compile(item, next: entry) }
            return entry
        case .alternation(let branches):
            var entry = try compile(branches[branches.count - 1], next: next)
            for branch in branches.dropLast().reversed() {
                let branchEntry = try compile(branch, next: next)
                entry = try emit(.split(branchEntry, entry))
            }
            return entry
        case .repetition(let body, let minimum, let maximum):
            var entry = next
            if let maximum {
                for _ in minimum..<maximum {
                    let bodyEntry = try compile(body, next: entry)
                    entry = try emit(.split(bodyEntry, next))
                }
            } else {
                // The loop's split is emitted first and patched once its body (which returns
                // to it) exists.
                let loop = try emit(.split(0, next))
                let bodyEntry = try compile(body, next: loop)
                instructions[loop] = .split(bodyEntry, next)
                entry = loop
            }
            for _ in 0..<minimum { entry = try compile(body, next: entry) }
            return entry
        }
    }
}
