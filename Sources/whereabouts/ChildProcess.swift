import Foundation

/// A program the fault campaign starts: its output goes to a file (never a pipe, whose blocking
/// reads fail when a signal arrives), and waiting for it happens on a thread of its own, off Swift's
/// cooperative threads, which the in-process proxy needs.
struct ChildProcess {
    let process: Process
    /// Standard output and standard error together.
    let output: URL

    /// Starts `executable` with `arguments`, its output to a new file in `folder`.
    static func launch(_ executable: String, _ arguments: [String], folder: URL) throws -> ChildProcess {
        let output = folder.appendingPathComponent("output-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return ChildProcess(process: process, output: output)
    }

    /// Runs `executable` to its end; returns its status and what it printed.
    static func run(_ executable: String, _ arguments: [String], folder: URL) async throws -> (status: Int32, text: String) {
        let child = try launch(executable, arguments, folder: folder)
        let status = await child.wait()
        return (status, child.text)
    }

    /// What it printed so far.
    var text: String { String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self) }

    /// Waits for it to end and returns its exit status.
    @discardableResult
    func wait() async -> Int32 {
        await withCheckedContinuation { done in
            Thread {
                process.waitUntilExit()
                done.resume()
            }.start()
        }
        return process.terminationStatus
    }

    /// Sends SIGKILL and waits for the end.
    func kill() async {
        Foundation.kill(process.processIdentifier, SIGKILL)
        await wait()
    }
}
