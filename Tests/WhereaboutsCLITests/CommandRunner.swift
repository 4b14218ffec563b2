import Foundation
import Testing
import WhereaboutsTestSupport

/// Runs the built `whereabouts` executable and captures what it printed.
struct CommandRunner {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The folder holding the test bundle also holds the built executables.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("whereabouts")
    }

    /// Runs the executable to its end and returns its status and output.
    ///
    /// The output goes to files read after the exit, never through pipes: a blocking read of a pipe
    /// fails with EINTR when a signal reaches the test process, and Foundation's pipe reads turn
    /// that into a crash. The wait happens on a thread of its own, off Swift's cooperative threads,
    /// which the other tests of the process (and any in-process server) need.
    ///
    /// With `fileSizeLimit`, the executable runs under `ulimit -f` of that many 512-byte blocks, with
    /// `SIGXFSZ` ignored: a write past the limit fails as on a full disk instead of killing it.
    ///
    /// `environment` replaces the variables it names in the executable's environment.
    static func run(_ arguments: [String], fileSizeLimit: Int? = nil, environment: [String: String] = [:]) async throws -> Output {
        let folder = temporaryFolder("cli-run")
        defer { try? FileManager.default.removeItem(at: folder) }
        let stdout = folder.appendingPathComponent("stdout")
        let stderr = folder.appendingPathComponent("stderr")
        try #require(FileManager.default.createFile(atPath: stdout.path, contents: nil))
        try #require(FileManager.default.createFile(atPath: stderr.path, contents: nil))
        let process = Process()
        if let fileSizeLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "trap '' XFSZ; ulimit -f \(fileSizeLimit); exec \"$0\" \"$@\"", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        await waitForExit(process)
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: stdout), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: stderr), as: UTF8.self))
    }

    /// Starts the executable without waiting; output goes to /dev/null.
    static func launch(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits for a launched process to end, off the cooperative threads.
    static func waitForExit(_ process: Process) async {
        await withCheckedContinuation { done in
            Thread {
                process.waitUntilExit()
                done.resume()
            }.start()
        }
    }
}
