import Foundation
import Testing

/// ``ProcessExit``: a child's end awaited through its termination handler, without a thread.
@Suite("a child process's end, awaited")
struct ProcessExitTests {
    @Test("waiters before and after the exit all return, and the status is the child's")
    func waiters() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "sleep 0.3; exit 3"]
        let exit = ProcessExit(process)
        try process.run()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 { group.addTask { await exit.wait() } }
        }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 3)
        await exit.wait()
    }

    @Test("runProcess returns the exit status of a program that runs a while")
    func runsToItsEnd() async throws {
        #expect(try await runProcess("/bin/sh", ["-c", "sleep 0.2; exit 7"]) == 7)
    }
}
