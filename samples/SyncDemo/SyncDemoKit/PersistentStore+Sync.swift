import DiagStore
import Foundation

extension PersistentStore {
    /// Up to `limit` posts not exported yet, oldest first, with their attachments' image data
    /// faulted in (read from `ZIMAGEDATA` only now).
    public func unexportedPosts(limit: Int) throws -> [PostRecord] {
        let posts = try database.prepare(
            "SELECT Z_PK, ZRECORDNAME, ZTITLE, ZBODY, ZCREATED FROM ZPOST WHERE ZEXPORTED = 0 ORDER BY ZCREATED, Z_PK LIMIT ?")
        try posts.bind([limit])
        var result: [PostRecord] = []
        while try posts.step() {
            result.append(PostRecord(
                recordName: posts.string(at: 1), title: posts.string(at: 2), body: posts.string(at: 3),
                created: posts.int64(at: 4), attachments: try attachments(ofPost: posts.int64(at: 0))))
        }
        return result
    }

    private func attachments(ofPost key: Int64) throws -> [AttachmentRecord] {
        let statement = try database.prepare("""
            SELECT a.ZRECORDNAME, a.ZFILENAME, a.ZCHECKSUM, i.ZDATA FROM ZATTACHMENT a
            JOIN ZIMAGEDATA i ON i.Z_PK = a.ZIMAGEDATA WHERE a.ZPOST = ? ORDER BY a.Z_PK
            """)
        try statement.bind([key])
        var result: [AttachmentRecord] = []
        while try statement.step() {
            var attachment = AttachmentRecord(
                recordName: statement.string(at: 0), fileName: statement.string(at: 1), data: Data(statement.blob(at: 3)))
            attachment.checksum = statement.string(at: 2)
            result.append(attachment)
        }
        return result
    }

    /// Marks posts exported once the transport has them.
    public func markExported(_ recordNames: [String]) throws {
        try database.inTransaction(.immediate) {
            let statement = try database.prepare("UPDATE ZPOST SET ZEXPORTED = 1 WHERE ZRECORDNAME = ?")
            for name in recordNames {
                try statement.bind([name])
                try statement.run()
            }
        }
    }

    /// What a consistency check found: counts, and every broken invariant in words.
    public struct Audit: Sendable, Hashable {
        public var posts: Int
        public var attachments: Int
        public var imageBytes: Int64
        public var problems: [String]
    }

    /// Checks the file (`PRAGMA integrity_check`, foreign keys) and that every attachment has its
    /// image data, of the recorded size and checksum.
    public func audit() throws -> Audit {
        var problems: [String] = []
        let integrity = try database.prepare("PRAGMA integrity_check")
        while try integrity.step() {
            let line = integrity.string(at: 0)
            if line != "ok" { problems.append("integrity: \(line)") }
        }
        let foreignKeys = try database.prepare("PRAGMA foreign_key_check")
        while try foreignKeys.step() {
            problems.append("foreign key: row \(foreignKeys.int64(at: 1)) of \(foreignKeys.string(at: 0)) points nowhere")
        }
        let attachments = try database.prepare("""
            SELECT a.ZRECORDNAME, a.ZSIZE, a.ZCHECKSUM, i.ZDATA IS NULL, i.ZDATA FROM ZATTACHMENT a
            LEFT JOIN ZIMAGEDATA i ON i.Z_PK = a.ZIMAGEDATA
            """)
        var count = 0
        var bytes: Int64 = 0
        while try attachments.step() {
            count += 1
            let name = attachments.string(at: 0)
            if attachments.int64(at: 3) != 0 { problems.append("\(name): no image data"); continue }
            let data = Data(attachments.blob(at: 4))
            bytes += Int64(data.count)
            if Int64(data.count) != attachments.int64(at: 1) { problems.append("\(name): \(data.count) bytes, expected \(attachments.int64(at: 1))") }
            if Checksum.hex(data) != attachments.string(at: 2) { problems.append("\(name): checksum mismatch") }
        }
        return Audit(posts: postCount, attachments: count, imageBytes: bytes, problems: problems)
    }

    /// Record names of every post and attachment, to compare two devices.
    public func recordNames() throws -> (posts: Set<String>, attachments: Set<String>) {
        var posts = Set<String>(), attachments = Set<String>()
        let p = try database.prepare("SELECT ZRECORDNAME FROM ZPOST")
        while try p.step() { posts.insert(p.string(at: 0)) }
        let a = try database.prepare("SELECT ZRECORDNAME FROM ZATTACHMENT")
        while try a.step() { attachments.insert(a.string(at: 0)) }
        return (posts, attachments)
    }
}
