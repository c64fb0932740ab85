import DiagStore
import Foundation

/// The sync core's Core Data-like persistent store: one SQLite file in WAL mode with `ZPOST`,
/// `ZATTACHMENT` (many per post) and `ZIMAGEDATA` (the large blob behind an attachment's
/// to-one relationship, read only when asked for), and `Z_METADATA` with the store's UUID.
public final class PersistentStore {
    public static let schemaVersion = 1

    public let path: String
    /// The store identifier (`NSStoreUUID`), made when the file is created.
    public let identifier: String
    public let container: String
    let database: Database

    /// Opens the store at `path`, creating it (with a new UUID) when it does not exist.
    public init(path: String, container: String = SyncDemoNames.container, readOnly: Bool = false) throws {
        self.path = path
        database = try Database(path: path, options: .init(readOnly: readOnly, create: !readOnly))
        if readOnly {
            guard try database.userVersion() == Self.schemaVersion else {
                throw DemoError("\(path): not a SyncDemo store (schema version \(try database.userVersion()), expected \(Self.schemaVersion))")
            }
        } else {
            try database.enableWAL()
            try database.execute("PRAGMA foreign_keys = ON")
            try Self.createSchema(database, container: container)
        }
        guard let uuid = try database.scalarText("SELECT Z_UUID FROM Z_METADATA WHERE Z_VERSION = 1"),
              let owner = try database.scalarText("SELECT Z_CONTAINER FROM Z_METADATA WHERE Z_VERSION = 1")
        else { throw DemoError("\(path): the store has no Z_METADATA row") }
        identifier = uuid
        self.container = owner
    }

    private static func createSchema(_ database: Database, container: String) throws {
        let version = try database.userVersion()
        if version == schemaVersion { return }
        guard version == 0 else {
            throw DemoError("\(database.path): schema version \(version) is not one this sync core knows (\(schemaVersion))")
        }
        try database.inTransaction(.immediate) {
            try database.execute("""
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID TEXT NOT NULL, Z_CONTAINER TEXT NOT NULL);
                CREATE TABLE ZPOST (
                  Z_PK INTEGER PRIMARY KEY, ZRECORDNAME TEXT NOT NULL UNIQUE, ZTITLE TEXT NOT NULL,
                  ZBODY TEXT NOT NULL, ZCREATED INTEGER NOT NULL, ZEXPORTED INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE ZIMAGEDATA (Z_PK INTEGER PRIMARY KEY, ZDATA BLOB NOT NULL);
                CREATE TABLE ZATTACHMENT (
                  Z_PK INTEGER PRIMARY KEY, ZRECORDNAME TEXT NOT NULL UNIQUE,
                  ZPOST INTEGER NOT NULL REFERENCES ZPOST(Z_PK) ON DELETE CASCADE,
                  ZFILENAME TEXT NOT NULL, ZSIZE INTEGER NOT NULL, ZCHECKSUM TEXT NOT NULL,
                  ZIMAGEDATA INTEGER NOT NULL UNIQUE REFERENCES ZIMAGEDATA(Z_PK));
                CREATE INDEX ZATTACHMENT_ZPOST ON ZATTACHMENT(ZPOST);
                """)
            try database.execute(
                "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_CONTAINER) VALUES (1, ?, ?)",
                [UUID().uuidString, container])
            try database.setUserVersion(schemaVersion)
        }
    }

    /// Saves posts (one transaction); posts whose record name is already stored are skipped, so
    /// an import that runs twice stores each post once. Returns how many posts were new.
    @discardableResult
    public func save(_ posts: [PostRecord], exported: Bool = false) throws -> Int {
        try database.inTransaction(.immediate) {
            let insertPost = try database.prepare(
                "INSERT INTO ZPOST (ZRECORDNAME, ZTITLE, ZBODY, ZCREATED, ZEXPORTED) VALUES (?, ?, ?, ?, ?) ON CONFLICT (ZRECORDNAME) DO NOTHING")
            let insertImage = try database.prepare("INSERT INTO ZIMAGEDATA (ZDATA) VALUES (?)")
            let insertAttachment = try database.prepare(
                "INSERT INTO ZATTACHMENT (ZRECORDNAME, ZPOST, ZFILENAME, ZSIZE, ZCHECKSUM, ZIMAGEDATA) VALUES (?, ?, ?, ?, ?, ?)")
            var added = 0
            for post in posts {
                try insertPost.bind([post.recordName, post.title, post.body, post.created, exported ? 1 : 0])
                try insertPost.run()
                guard database.changes == 1 else { continue }
                added += 1
                let postKey = database.lastInsertRowID
                for attachment in post.attachments {
                    try insertImage.bind([SQLBlob([UInt8](attachment.data))])
                    try insertImage.run()
                    try insertAttachment.bind([
                        attachment.recordName, postKey, attachment.fileName, attachment.data.count,
                        attachment.checksum, database.lastInsertRowID,
                    ])
                    try insertAttachment.run()
                }
            }
            return added
        }
    }

    public var postCount: Int { (try? database.scalarInt("SELECT count(*) FROM ZPOST")).map(Int.init) ?? 0 }
    public var attachmentCount: Int { (try? database.scalarInt("SELECT count(*) FROM ZATTACHMENT")).map(Int.init) ?? 0 }
}

@available(*, unavailable)
extension PersistentStore: Sendable {}
