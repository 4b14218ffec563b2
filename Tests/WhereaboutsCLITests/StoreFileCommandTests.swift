import Foundation
import GRDB
import Testing
import WhereaboutsStore
import WhereaboutsTestServer
import WhereaboutsTestSupport

/// The bytes of the file at `path` and the names beside it, to show a command left them as they were.
private struct Untouched: Equatable {
    let bytes: Data
    let folder: [String]

    init(_ path: String) throws {
        bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        folder = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).sorted()
    }
}

/// Every command that opens a store, on `path`.
private func storeCommands(_ path: String) -> [[String]] {
    [
        ["store", "inspect", path], ["store", "inspect", path, "--json"], ["store", "flush", path, "--upload", "http://127.0.0.1:9"],
        ["store", "requeue", path], ["simulate", "--strategy", "move", "--store", path],
        ["track", "--store", path, "--gpsd", "127.0.0.1:9"],
    ]
}

@Suite("Store files on the command line")
struct StoreFileCommandTests {
    @Test("every store command refuses a file that is not a store, names it and leaves it as it was")
    func notAStore() async throws {
        let folder = temporaryFolder("cli")
        let gpx = folder.appendingPathComponent("trace.gpx").path
        try Data("<gpx><trk><trkseg></trkseg></trk></gpx>\n".utf8).write(to: URL(fileURLWithPath: gpx))
        let notes = folder.appendingPathComponent("notes.sqlite").path
        let queue = try DatabaseQueue(path: notes)
        try await queue.write {
            try $0.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO note (text) VALUES ('keep me')")
        }
        try queue.close()
        let empty = folder.appendingPathComponent("empty.sqlite").path
        try #require(FileManager.default.createFile(atPath: empty, contents: nil))
        for (path, problem) in [(gpx, "is not a SQLite database"), (notes, "another application's SQLite database"), (empty, "is empty")] {
            let before = try Untouched(path)
            for arguments in storeCommands(path) {
                let result = try await CommandRunner.run(arguments)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(path) && result.stderr.contains(problem), "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("left as it was") || problem == "is empty", "\(arguments): \(result.stderr)")
                #expect(try Untouched(path) == before, "\(arguments) changed \(path) or the files beside it")
            }
        }
    }

    @Test("a usage error is reported before the store file is opened")
    func usageBeforeOpening() async throws {
        let folder = temporaryFolder("cli")
        let gpx = folder.appendingPathComponent("trace.gpx").path
        try Data("<gpx/>".utf8).write(to: URL(fileURLWithPath: gpx))
        let before = try Untouched(gpx)
        let flush = try await CommandRunner.run(["store", "flush", gpx])
        #expect(flush.status == 2)
        #expect(flush.stderr.contains("needs --upload"), "\(flush.stderr)")
        let badURL = try await CommandRunner.run(["track", "--store", gpx, "--upload", "ftp://x"])
        #expect(badURL.stderr.contains("is not an http(s) URL"), "\(badURL.stderr)")
        for bad in ["-5", "86401", "nan"] {
            let badInterval = try await CommandRunner.run(["track", "--store", gpx, "--upload-interval", bad])
            #expect(badInterval.status == 2 && badInterval.stderr.contains("--upload-interval"), "\(bad): \(badInterval.stderr)")
        }
        #expect(try Untouched(gpx) == before)
        let missing = folder.appendingPathComponent("new.sqlite").path
        _ = try await CommandRunner.run(["store", "flush", missing])
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test("store inspect reads a write-protected store without writing a byte or leaving -wal and -shm files")
    func inspectReadOnly() async throws {
        let folder = temporaryFolder("cli")
        let path = folder.appendingPathComponent("run.sqlite").path
        let recorded = try await CommandRunner.run(["simulate", "--strategy", "move", "--store", path])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let before = try Untouched(path)
        let text = try await CommandRunner.run(["store", "inspect", path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("integrity ok"))
        let json = try await CommandRunner.run(["store", "inspect", path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(try Untouched(path) == before)
        #expect(before.folder == ["run.sqlite"])
    }

    @Test("store flush of a store with a damaged index page salvages every record and says where the damaged file is")
    func flushDamaged() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let folder = temporaryFolder("cli")
        let path = folder.appendingPathComponent("run.sqlite").path
        #expect(try await CommandRunner.run(["simulate", "--strategy", "continuous", "--store", path]).status == 0)
        let store = try SQLiteLocationStore(path: path, options: StoreOptions(mode: .readOnly))
        let records = try store.summary().records
        let index = try #require(try store.pages(of: "location_uuid").first)
        try store.close()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: index.offset)
        handle.write(Data(count: 3))
        try handle.close()

        let flush = try await CommandRunner.run(["store", "flush", path, "--upload", server.baseURL.absoluteString])
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(flush.stderr.contains("\(path) was damaged: salvaged"), "\(flush.stderr)")
        #expect(flush.stderr.contains("lost 0"), "\(flush.stderr)")
        #expect(flush.stderr.contains("kept at \(path).damaged-"), "\(flush.stderr)")
        let inspect = try await CommandRunner.run(["store", "inspect", path, "--json"])
        #expect(inspect.stdout.contains("\"records\":\(records),"), "\(inspect.stdout)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("run.sqlite.damaged-") }
        #expect(kept.count == 1)
    }
}
