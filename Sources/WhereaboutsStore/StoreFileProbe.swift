import Foundation
import GRDB

/// A look at the file at a store's path that writes nothing: whether it is there, whether it is a
/// SQLite database, whose database it is, which migrations it has and whether SQLite finds it sound.
struct StoreFileProbe {
    /// What lies at the path.
    enum Finding {
        case missing
        case folder
        /// A file of 0 bytes, or a SQLite database without a single table.
        case empty(String)
        /// Not a SQLite database at all.
        case notDatabase
        /// Another application's SQLite database; the text says how it was told apart.
        case foreign(String)
        /// A SQLite database whose owner cannot be told: no application id, and a schema that
        /// cannot be read.
        case unrecognisable(String)
        /// A Whereabouts store.
        case store(Facts)
    }

    /// What the probe learnt of a Whereabouts store.
    struct Facts {
        /// The migrations applied, oldest first; `nil` when they cannot be read.
        let migrations: [String]?
        /// SQLite's first complaint about the file, or `nil` when it is sound.
        let damage: String?
    }

    let finding: Finding
    /// The read-only connection the probe used, when the file is a database.
    let connection: DatabaseQueue?

    /// The 16 bytes every SQLite database starts with.
    private static let header = Data("SQLite format 3\u{0}".utf8)

    /// Looks at `path`.
    static func look(at path: String) -> StoreFileProbe {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return StoreFileProbe(finding: .missing, connection: nil)
        }
        if isFolder.boolValue { return StoreFileProbe(finding: .folder, connection: nil) }
        guard let handle = FileHandle(forReadingAtPath: path) else { return StoreFileProbe(finding: .notDatabase, connection: nil) }
        let start = (try? handle.read(upToCount: header.count)) ?? Data()
        try? handle.close()
        if start.isEmpty { return StoreFileProbe(finding: .empty("is empty"), connection: nil) }
        guard start == header, let connection = try? openReadOnly(path) else {
            return StoreFileProbe(finding: .notDatabase, connection: nil)
        }
        let finding = (try? connection.read(finding)) ?? .unrecognisable("SQLite cannot read it")
        return StoreFileProbe(finding: finding, connection: connection)
    }

    private static func finding(_ db: Database) -> Finding {
        let applicationID = try? Int32.fetchOne(db, sql: "PRAGMA application_id")
        let tables = try? Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        let migrations =
            tables?.contains("grdb_migrations") == true
            ? try? String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") : nil
        let damage: String?
        do {
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check(1)") ?? "no answer"
            damage = check == "ok" ? nil : check
        } catch {
            damage = (error as? DatabaseError)?.message ?? "\(error)"
        }
        if let applicationID, applicationID != 0 {
            guard applicationID == StoreSchema.applicationID else {
                return .foreign(
                    "is another application's SQLite database (application_id \(String(format: "0x%08X", UInt32(bitPattern: applicationID))))"
                )
            }
            return .store(Facts(migrations: migrations, damage: damage))
        }
        guard let tables else { return .unrecognisable(damage ?? "its schema cannot be read") }
        if tables.isEmpty { return .empty("is an empty SQLite database") }
        let storeTables: Set = ["location", "event", "region", "setting", "command", "drop_log"]
        guard migrations?.first == "v1", storeTables.isSubset(of: tables) else {
            let names = tables.sorted().prefix(5).joined(separator: ", ")
            return .foreign("is another application's SQLite database (tables \(names)\(tables.count > 5 ? ", …" : ""))")
        }
        return .store(Facts(migrations: migrations, damage: damage))
    }

    /// Opens `path` read-only. A store no connection has open (no `-shm` file, no content in a
    /// write-ahead log) is opened immutable, so SQLite creates no `-wal` or `-shm` file beside it.
    /// Otherwise it is read through the log and the writers' shared memory, as any reader does: an
    /// app may be writing it, and an immutable reader would miss its commits and could read pages a
    /// checkpoint is rewriting.
    static func openReadOnly(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let location =
            isAtRest(path) ? "file:\(path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)?immutable=1" : path
        return try DatabaseQueue(path: location, configuration: configuration)
    }

    /// Whether the store at `path` can be read without touching its folder: no content in a
    /// write-ahead log, no `-shm` file, and a SQLite that opens a file immutable.
    static func isAtRest(_ path: String) -> Bool {
        let files = FileManager.default
        let logSize = (try? files.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return logSize == 0 && !files.fileExists(atPath: path + "-shm") && uriFilenames
    }

    /// Whether this SQLite reads `file:` names as URIs (Debian's does; where it does not, a read-only
    /// open of a store in WAL mode leaves empty `-wal` and `-shm` files).
    private static let uriFilenames: Bool = {
        guard let memory = try? DatabaseQueue() else { return false }
        return (try? memory.read { try Bool.fetchOne($0, sql: "SELECT sqlite_compileoption_used('USE_URI')") }) == true
    }()
}
