import DiagModel

extension LineBatch {
    /// Takes a syslog message straight into its packed row (`SyslogRowReader`) when the store
    /// takes writes and the level settings persist it (read back as a `LogRecord` for the live
    /// streams, when there are any); false when the caller must read it the general way
    /// (`SyslogParser`, `SyslogMessage.record`), which gives the same record or the error.
    mutating func takeSyslog(
        _ bytes: UnsafeRawBufferPointer, with reader: inout SyslogRowReader, transport: StaticString, peer: String?,
        identity: PeerIdentity?, size: Int
    ) -> Bool {
        guard prepareRow() else { return false }
        let levels = levels
        let taken = reader.read(bytes, receiptTime: receiptTime, transport: transport, peer: peer, identity: identity, into: &persisted) {
            levels.destination(messageType: $0, subsystem: $1, category: $2) == .persisted
        }
        guard taken else { return false }
        rowAppended(size: size)
        return true
    }
}
