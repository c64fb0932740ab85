import Synchronization

/// The connections diagd serves at once, in all and per user (the UID from SO_PEERCRED), so that
/// one local user cannot take every slot and lock the others out.
final class ConnectionQuota: Sendable {
    /// Why a connection was refused: the text of the error line the client receives.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    private struct Counts {
        var total = 0
        var byUser: [Int64: Int] = [:]
    }

    let maximum: Int
    let maximumPerUser: Int
    private let counts = Mutex(Counts())

    init(maximum: Int, maximumPerUser: Int) {
        self.maximum = max(1, maximum)
        self.maximumPerUser = max(1, maximumPerUser)
    }

    /// Takes a slot for `userID`, or says why there is none. Each admitted connection must be
    /// released exactly once.
    func admit(userID: Int64) throws(Refusal) {
        let refusal: Refusal? = counts.withLock { counts in
            if counts.total >= maximum {
                return Refusal(description: "diagd serves at most \(maximum) connections at once; retry later")
            }
            let mine = counts.byUser[userID, default: 0]
            if mine >= maximumPerUser {
                return Refusal(description: "diagd serves at most \(maximumPerUser) connections per user at once and uid \(userID) has them all open; close one or retry later")
            }
            counts.total += 1
            counts.byUser[userID] = mine + 1
            return nil
        }
        if let refusal { throw refusal }
    }

    func release(userID: Int64) {
        counts.withLock { counts in
            guard let mine = counts.byUser[userID], mine > 0 else { return }
            counts.total -= 1
            counts.byUser[userID] = mine == 1 ? nil : mine - 1
        }
    }

    /// Open connections, in all and of `userID`.
    func open(userID: Int64? = nil) -> Int {
        counts.withLock { counts in userID.map { counts.byUser[$0, default: 0] } ?? counts.total }
    }
}
