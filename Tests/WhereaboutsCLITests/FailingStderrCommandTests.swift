import Foundation
import Testing

@Suite("A standard error that cannot be written (a closed terminal, a full device)")
struct FailingStderrCommandTests {
    @Test("a refused input still exits 2, when the message cannot be written")
    func exitsWithItsStatus() async throws {
        for (arguments, status) in [
            (["simulate", "--strategy", "nonsense"], Int32(2)),
            (["simulate", "--trace", "/nonexistent/trace.gpx"], Int32(2)),
        ] {
            let process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try #require(FileHandle(forWritingAtPath: "/dev/full"), "/dev/full is missing")
            try process.run()
            await CommandRunner.waitForExit(process)
            #expect(process.terminationReason == .exit, "\(arguments): ended by signal \(process.terminationStatus)")
            #expect(process.terminationStatus == status, "\(arguments)")
        }
    }
}
