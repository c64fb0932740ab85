import Foundation
@testable import DiagStore

/// What several store tests do to a store's files: edit its `Info.json` as a failed save or a
/// hand leaves it, and wait for a background thread's work to show.
enum StoreTestFiles {
    /// Rewrites the chunks' entries of the store's `Info.json` at `url`.
    static func editChunks(_ url: URL, _ edit: (inout [[String: Any]]) -> Void) throws {
        let infoURL = StoreLayout.infoURL(url)
        var info = try JSONSerialization.jsonObject(with: Data(contentsOf: infoURL)) as! [String: Any]
        var chunks = info["chunks"] as! [[String: Any]]
        edit(&chunks)
        info["chunks"] = chunks
        try JSONSerialization.data(withJSONObject: info).write(to: infoURL)
    }

    /// The size of the file at `path` in bytes, 0 when there is none.
    static func size(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// Polls `condition` for up to 30 seconds (a thread runs when the scheduler lets it).
    static func waitFor(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try condition()
    }
}
