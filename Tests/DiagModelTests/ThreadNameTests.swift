import DiagModel
import Synchronization
import Foundation
import Testing

/// `ThreadName`: the name the kernel shows for a thread, cut to its 15 bytes at a character.
@Suite struct ThreadNameTests {
    private func named(_ name: String) -> String {
        let result = Mutex("")
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            ThreadName.setCurrent(name)
            // What top -H and ps -L read.
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            result.withLock { $0 = comm == ThreadName.current + "\n" ? ThreadName.current : "comm \(comm) ≠ \(ThreadName.current)" }
            done.signal()
        }
        thread.start()
        done.wait()
        return result.withLock { $0 }
    }

    @Test func theKernelShowsTheNameCutAtFifteenBytesOnACharacter() {
        #expect(named("diagd-writer") == "diagd-writer")
        #expect(named("diagd-syslog-worker-1") == "diagd-syslog-wo")
        // é is two bytes: seven fit in 15, the eighth would be cut in half.
        #expect(named(String(repeating: "é", count: 9)) == String(repeating: "é", count: 7))
    }
}
