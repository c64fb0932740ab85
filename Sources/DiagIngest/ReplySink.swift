import DiagProtocol

/// Where a connection's replies go: its socket (`Connection`), or memory in the tests that feed
/// a `RequestSession` bytes without a socket.
///
/// `send` never blocks: what the peer cannot take now waits, and `pendingReplyBytes` says how
/// much, so that ring dumps and streams go on only as fast as the peer reads.
protocol ReplySink: AnyObject, Sendable {
    func send(bytes: [UInt8])
    var pendingReplyBytes: Int { get }
    /// Asks for another turn of the connection's session soon (on a worker): a stream has records.
    func requestTurn()
}

extension ReplySink {
    /// Sends one reply line, spelled by `DaemonReply` as the clients read it.
    func send(_ reply: DaemonReply) {
        send(bytes: reply.line)
    }
}
