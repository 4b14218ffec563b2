import Foundation

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

    static func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("whereabouts-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension CommandRunner {
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

    /// Runs the executable off the cooperative threads (tests with an in-process server need them).
    static func runAsync(_ arguments: [String]) async throws -> Output {
        try await withCheckedThrowingContinuation { done in
            Thread {
                done.resume(with: Result { try run(arguments) })
            }.start()
        }
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
