import Foundation
import Testing
import WhereaboutsTestSupport

/// A disk that fills, as a file-size limit (`ulimit -f`) makes it: SQLite meets it as a failed write,
/// as it meets a full disk.
@Suite("A disk that fills under simulate --store")
struct FullDiskCommandTests {
    @Test(
        "a store that cannot be created leaves nothing at its path or beside it, says the disk is full, and the path works once there is room"
    )
    func creation() async throws {
        let folder = temporaryFolder("cli")
        let path = folder.appendingPathComponent("s.sqlite").path
        for blocks in [8, 24, 48, 72] {
            let run = try await CommandRunner.run(["simulate", "--strategy", "move", "--store", path], fileSizeLimit: blocks)
            #expect(run.status == 2, "ulimit -f \(blocks): \(run.stdout)")
            #expect(run.stderr.contains("could not be created") && run.stderr.contains("file-size limit"), "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "ulimit -f \(blocks) left files")
        }
        let roomy = try await CommandRunner.run(["simulate", "--strategy", "move", "--store", path])
        #expect(roomy.status == 0, "\(roomy.stderr)")
    }

    @Test("a disk that fills during the run fails it, naming the file-size limit once, and what was stored stays readable")
    func duringRun() async throws {
        let folder = temporaryFolder("cli")
        let path = folder.appendingPathComponent("s.sqlite").path
        let run = try await CommandRunner.run(["simulate", "--strategy", "move", "--store", path], fileSizeLimit: 400)
        #expect(run.status == 2, "a run that lost writes exits non-zero: \(run.stdout)")
        #expect(run.stderr.contains("never stored") && run.stderr.contains("file-size limit of 204800 bytes (ulimit -f)"), "\(run.stderr)")
        #expect(!run.stderr.contains("exists and is writable"), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "cannot grow").count == 2, "the refusal is said once: \(run.stderr)")
        let inspect = try await CommandRunner.run(["store", "inspect", path])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("integrity ok"), "\(inspect.stdout)")
    }
}
