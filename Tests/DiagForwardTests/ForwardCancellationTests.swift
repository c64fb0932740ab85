@testable import DiagForward
import Synchronization
import Testing

/// What `ForwardCancellation.cancel` wakes (a read-ahead's channel): each action runs once,
/// whether it was registered before the cancel or after.
@Suite struct ForwardCancellationTests {
    @Test func everyActionRunsOnceWhenRegisteredBeforeOrAfterTheCancel() {
        let cancellation = ForwardCancellation()
        let runs = Mutex<[String]>([])
        cancellation.whenCancelled { runs.withLock { $0.append("before") } }
        #expect(runs.withLock { $0 }.isEmpty)
        cancellation.cancel()
        #expect(cancellation.isCancelled)
        cancellation.whenCancelled { runs.withLock { $0.append("after") } }
        cancellation.cancel()
        #expect(runs.withLock { $0 } == ["before", "after"])
    }
}
