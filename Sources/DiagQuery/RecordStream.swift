import DiagModel

/// Records one at a time, in the order the source keeps them; nil at the end.
public protocol RecordStream {
    mutating func next() throws -> LogRecord?
}

/// Several streams interleaved by timestamp, holding one record per stream: memory stays flat
/// however long the streams are. Each stream's own order is kept; ties go to the earlier stream.
public struct MergedRecordStream: RecordStream {
    private var streams: [any RecordStream]
    /// Min-heap of (timestamp, stream index) for the streams that have a record waiting.
    private var heap: [(timestamp: Int64, stream: Int)] = []
    private var heads: [LogRecord?]
    private var started = false

    public init(_ streams: [any RecordStream]) {
        self.streams = streams
        heads = Array(repeating: nil, count: streams.count)
    }

    public mutating func next() throws -> LogRecord? {
        // One source needs no ordering: skip the heap and the copy through `heads`.
        if streams.count == 1 { return try streams[0].next() }
        if !started {
            started = true
            for index in streams.indices { try refill(index) }
        }
        guard let top = heap.first else { return nil }
        let record = heads[top.stream]
        heads[top.stream] = nil
        popTop()
        try refill(top.stream)
        return record
    }

    private mutating func refill(_ index: Int) throws {
        guard let record = try streams[index].next() else { return }
        heads[index] = record
        heap.append((record.timestamp, index))
        siftUp(heap.count - 1)
    }

    private func precedes(_ a: (timestamp: Int64, stream: Int), _ b: (timestamp: Int64, stream: Int)) -> Bool {
        (a.timestamp, a.stream) < (b.timestamp, b.stream)
    }

    private mutating func popTop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var index = 0
        while true {
            let left = 2 * index + 1, right = left + 1
            var smallest = index
            if left < heap.count, precedes(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, precedes(heap[right], heap[smallest]) { smallest = right }
            if smallest == index { return }
            heap.swapAt(index, smallest)
            index = smallest
        }
    }

    private mutating func siftUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard precedes(heap[index], heap[parent]) else { return }
            heap.swapAt(index, parent)
            index = parent
        }
    }
}

/// A stream over records already in memory, in the given order (tests, small inputs).
public struct ArrayRecordStream: RecordStream {
    private var iterator: IndexingIterator<[LogRecord]>

    public init(_ records: [LogRecord]) { iterator = records.makeIterator() }

    public mutating func next() throws -> LogRecord? { iterator.next() }
}
