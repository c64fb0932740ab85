import Foundation
import Testing
import TestSupport

/// DiagClient fills `senderImagePath`: the image holding the call site and the call site's
/// module, `IMAGE(MODULE)`, so a predicate on the image finds what one on the sender finds.
@Suite struct SenderImagePathTests {
    @Test func senderImagePathNamesTheProgramAndTheModule() throws {
        let harness = try ScenarioHarness()
        _ = try harness.play(posts: 4)
        #expect(harness.stopDaemon() == 0)
        let bySender = try harness.show(["--predicate", #"sender == "CoreData""#])
        let byImage = try harness.show(["--predicate", #"senderImagePath CONTAINS "CoreData""#])
        #expect(!bySender.isEmpty)
        #expect(byImage.count == bySender.count)
        let images = Set(byImage.compactMap { $0["senderImagePath"] as? String })
        #expect(!images.isEmpty)
        for image in images {
            // The sync core's own executable, with the module in parentheses.
            #expect(image.hasPrefix("/") && image.hasSuffix("/sync-core(CoreData)"), "\(image)")
        }
        // Every record a component logged through DiagClient has one (diagd's too).
        let all = try harness.show()
        #expect(all.allSatisfy { ($0["senderImagePath"] as? String)?.hasPrefix("/") == true },
                "\(all.filter { $0["senderImagePath"] == nil }.prefix(2))")
    }
}
