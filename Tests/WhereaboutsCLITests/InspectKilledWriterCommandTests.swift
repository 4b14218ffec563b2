import Foundation
import GRDB
import Testing
import WhereaboutsTestSupport

/// `store inspect` on the files a killed writer leaves: a write-ahead log holding commits the
/// database file lacks, and the writers' shared memory (`-shm`), which a first reader would rebuild.
@Suite("whereabouts store inspect on a store left by a killed writer")
struct InspectKilledWriterCommandTests {
    private static let suffixes = ["", "-wal", "-shm"]

    @Test("inspect changes no byte of the store, its -wal or its -shm, leaves no file, and counts the records only the log holds")
    func killedWriter() async throws {
        let folder = temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("killed.sqlite").path
        let committed = try #require(try await leaveHotLog(at: path), "no run of simulate was killed with records in its log")
        let before = try Self.suffixes.map { try Data(contentsOf: URL(fileURLWithPath: path + $0)) }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let snapshots = try Self.snapshotsLeft()

        let inspect = try await CommandRunner.run(["store", "inspect", path, "--json"])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("\"records\":\(committed),"), "the log holds \(committed) records: \(inspect.stdout)")
        for (suffix, bytes) in zip(Self.suffixes, before) {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path + suffix)) == bytes, "store inspect changed \(path)\(suffix)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == names)
        #expect(try Self.snapshotsLeft().isSubset(of: snapshots), "store inspect left its copy in the temporary folder")
    }

    /// The copies of stores in the temporary folder.
    private static func snapshotsLeft() throws -> Set<String> {
        let names = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
        return Set(names.filter { $0.hasPrefix("whereabouts-snapshot-") })
    }

    /// Records into `path` until its log holds commits, then kills the writer, until a kill finds
    /// records in the log and `-shm` still there (a run that ends first checkpoints and removes
    /// them); returns how many records the store holds.
    private func leaveHotLog(at path: String) async throws -> Int? {
        for seed in 1...10 {
            for suffix in Self.suffixes { try? FileManager.default.removeItem(atPath: path + suffix) }
            let writer = try CommandRunner.launch(["simulate", "--strategy", "continuous", "--seed", "\(seed)", "--store", path])
            while writer.isRunning, Self.size(path + "-wal") < 256 * 1024 { try await Task.sleep(nanoseconds: 5_000_000) }
            kill(writer.processIdentifier, SIGKILL)
            await CommandRunner.waitForExit(writer)
            guard Self.size(path + "-wal") > 0, FileManager.default.fileExists(atPath: path + "-shm") else { continue }
            let committed = try recordsCommitted(path, copyIn: temporaryFolder("cli-copy"))
            if committed > 0 { return committed }
        }
        return nil
    }

    /// The records committed in the store, read from a copy of its files opened as SQLite opens a
    /// store after a crash.
    private func recordsCommitted(_ path: String, copyIn folder: URL) throws -> Int {
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("copy.sqlite").path
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix) }
        let queue = try DatabaseQueue(path: copy)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM location") ?? 0 }
    }

    private static func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
