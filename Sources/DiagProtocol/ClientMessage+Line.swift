import DiagModel

extension ClientMessage {
    /// The line a client sends for this message, newline included: the one spelling of each
    /// request that `parse` reads back (`{"ring": true}`, `{"config": {…}}`, …).
    public var line: [UInt8] {
        var writer = JSONWriter()
        switch self {
        case .record(let record): record.writeJSON(to: &writer)
        case .sync(let id): writer.append(.object(["sync": id]))
        case .ring: writer.append(.object(["ring": .bool(true)]))
        case .stats: writer.append(.object(["stats": .bool(true)]))
        case .subscribe(let request): writer.append(.object(["subscribe": request.json]))
        case .configure(let setting): writer.append(.object(["config": setting?.json ?? .object([:])]))
        case .resetLevels(let reset): writer.append(.object(["config": reset.json]))
        }
        writer.bytes.append(UInt8(ascii: "\n"))
        return writer.bytes
    }
}
