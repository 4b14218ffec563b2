import Foundation
import GRDB
import Testing
import WhereaboutsCore
import WhereaboutsStoreTestSupport
import WhereaboutsTestSupport

@testable import WhereaboutsStore

/// The files in the folder of `path`, sorted.
private func neighbours(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).sorted()
}

/// Expects opening `path` with `mode` to be refused as not a store, naming the file, and the file
/// and its folder to be left exactly as they were. A mode that never creates a store does not point to
/// a free path to start one.
private func expectRefused(_ path: String, _ mode: StoreOpenMode, saying problem: String) throws {
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let folder = try neighbours(path)
    let createsMissing = mode == .readWrite || mode == .dedicated
    #expect {
        try SQLiteLocationStore(path: path, options: StoreOptions(mode: mode))
    } throws: { error in
        guard let error = error as? StoreError else { return false }
        return error.kind == .notAStore && error.description.contains(path) && error.description.contains(problem)
            && (createsMissing || !error.description.contains("to start one"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(mode) changed \(path)")
    #expect(try neighbours(path) == folder, "\(mode) left files beside \(path)")
}

@Suite("Store open modes")
struct StoreOpenModeTests {
    @Test("a file that is not a database is refused by every mode and left as it was")
    func notADatabase() throws {
        let path = temporaryFolder().appendingPathComponent("trace.gpx").path
        try Data("<gpx><trk></trk></gpx>\n".utf8).write(to: URL(fileURLWithPath: path))
        for mode in [StoreOpenMode.readOnly, .readWrite, .existing] {
            try expectRefused(path, mode, saying: "is not a SQLite database")
        }
    }

    @Test("another application's SQLite database is refused, gets no tables and no WAL")
    func foreignDatabase() throws {
        let path = temporaryFolder().appendingPathComponent("notes.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write {
            try $0.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO note (text) VALUES ('keep me')")
        }
        try queue.close()
        for mode in [StoreOpenMode.readOnly, .readWrite, .existing, .dedicated] {
            try expectRefused(path, mode, saying: "another application's SQLite database")
        }
    }

    @Test("a 0-byte file is refused unless it is an app's own store path; a missing path is created, except by the existing mode")
    func emptyAndMissing() throws {
        let path = temporaryFolder().appendingPathComponent("empty.sqlite").path
        try #require(FileManager.default.createFile(atPath: path, contents: nil))
        try expectRefused(path, .readOnly, saying: "is empty")
        try expectRefused(path, .readWrite, saying: "is empty")
        #expect(try SQLiteLocationStore(path: path).openReport.created)

        let missing = temporaryFolder().appendingPathComponent("new.sqlite").path
        #expect(throws: StoreError.self) { try SQLiteLocationStore(path: missing, options: StoreOptions(mode: .readOnly)) }
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect {
            try SQLiteLocationStore(path: missing, options: StoreOptions(mode: .existing))
        } throws: { error in
            (error as? StoreError).map { $0.kind == .io && $0.description.contains("\(missing): does not exist; this command") } ?? false
        }
        #expect(!FileManager.default.fileExists(atPath: missing), "the existing mode created the store it refused")
        let created = try SQLiteLocationStore(path: missing, options: StoreOptions(mode: .readWrite))
        #expect(created.openReport.created)
        #expect(try created.integrityCheck() == "ok")
        try created.close()
        #expect(try !SQLiteLocationStore(path: missing, options: StoreOptions(mode: .existing)).openReport.created)
    }

    @Test("read-only: a store is read without writing a byte or leaving -wal and -shm files, and a write is refused")
    func readOnlyWritesNothing() throws {
        let store = try makeStore()
        try store.append(sampleRecords(50), at: Date())
        try store.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        let reader = try SQLiteLocationStore(path: store.path, options: StoreOptions(mode: .readOnly))
        #expect(try reader.summary().records == 50)
        #expect(try reader.integrityCheck() == "ok")
        #expect { try reader.requeueRejected() } throws: { ($0 as? StoreError)?.kind == .readOnly }
        try reader.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
        #expect(try neighbours(store.path) == ["store.sqlite"])
    }

    @Test("read-only beside a live writer whose log was just emptied: every commit is seen, none missed")
    func readOnlyBesideLiveWriter() throws {
        let store = try makeStore()
        try store.append(sampleRecords(50), at: Date())
        let writer = try DatabaseQueue(path: store.path)
        _ = try writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        #expect((try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int) == 0)
        let reader = try SQLiteLocationStore(path: store.path, options: StoreOptions(mode: .readOnly))
        #expect(try reader.summary().records == 50)
        try store.append(sampleRecords(3000), at: Date())
        #expect(try reader.summary().records == 3050)
        _ = try writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        #expect(try reader.summary().records == 3050)
        #expect(try reader.integrityCheck() == "ok")
        try reader.close()
        try writer.close()
        try store.close()
    }

    @Test("a store from a newer version is refused, not migrated")
    func newerVersion() throws {
        let store = try makeStore()
        try store.close()
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        let folder = try neighbours(store.path)
        for mode in [StoreOpenMode.readOnly, .readWrite, .dedicated] {
            #expect {
                try SQLiteLocationStore(path: store.path, options: StoreOptions(mode: mode))
            } throws: { error in
                (error as? StoreError)?.kind == .incompatible && "\(error)".contains("v99-from-the-future")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before, "\(mode) changed the newer store")
            #expect(try neighbours(store.path) == folder, "\(mode) left files beside the newer store")
        }
    }

    @Test("a store written before the application id is still recognised and upgraded")
    func storeWithoutApplicationID() throws {
        let path = temporaryFolder().appendingPathComponent("v4.sqlite").path
        let pool = try DatabasePool(path: path)
        try StoreSchema.migrator.migrate(pool, upTo: "v4-command-ids")
        try pool.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let reader = try SQLiteLocationStore(path: path, options: StoreOptions(mode: .readOnly))
        #expect(try reader.summary().records == 0)
        try reader.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the read-only open upgraded or wrote into the v4 store")
        #expect(try neighbours(path) == ["v4.sqlite"])
        let store = try SQLiteLocationStore(path: path, options: StoreOptions(mode: .readWrite))
        try store.append(sampleRecords(2), at: Date())
        try store.close()
        let queue = try DatabaseQueue(path: path)
        #expect(try queue.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") } == StoreSchema.applicationID)
    }
}
