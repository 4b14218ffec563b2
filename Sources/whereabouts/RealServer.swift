import Foundation

/// The real `whereabouts-server` (the Server/ package's product) run as a process for the fault
/// campaign, on a SQLite database in the campaign's folder.
struct RealServer {
    let executable: String
    let database: String
    let port: Int
    let child: ChildProcess

    /// `http://127.0.0.1:port`.
    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The server executable: `given`, else `WHEREABOUTS_SERVER`, else `Server/.build/debug/whereabouts-server`
    /// (then `release`) in the first folder above this executable that has one.
    static func locate(_ given: String?) throws -> String {
        if let given = given ?? ProcessInfo.processInfo.environment["WHEREABOUTS_SERVER"] {
            guard FileManager.default.isExecutableFile(atPath: given) else {
                throw InputError("--server \(given) is not an executable file; build it with `cd Server && swift build` and give its path")
            }
            return given
        }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            for configuration in ["debug", "release"] {
                let candidate = folder.appendingPathComponent("Server/.build/\(configuration)/whereabouts-server").path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
            folder.deleteLastPathComponent()
        }
        throw InputError(
            "whereabouts-server was not found in Server/.build above \(CommandLine.arguments[0]); build it with `cd Server && swift build --product whereabouts-server`, or give --server PATH"
        )
    }

    /// `whereabouts-server device add NAME`; returns the device's token.
    static func addDevice(_ name: String, executable: String, database: String, folder: URL) async throws -> String {
        let (status, text) = try await ChildProcess.run(executable, ["device", "add", name, "--database", database], folder: folder)
        guard status == 0, let token = text.split(separator: "\n").last else {
            throw InputError("whereabouts-server device add \(name) failed (exit \(status)): \(text)")
        }
        return String(token)
    }

    /// Starts `serve` on `port` (0: a free one) and waits for its "listening" line.
    static func start(_ executable: String, database: String, port: Int, folder: URL) async throws -> RealServer {
        let child = try ChildProcess.launch(
            executable, ["serve", "--port", "\(port)", "--database", database, "--rate-limit", "0"], folder: folder)
        for _ in 0..<1500 {
            if let range = child.text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                let bound = Int(child.text[range].split(separator: ":").last ?? "")
            {
                return RealServer(executable: executable, database: database, port: bound, child: child)
            }
            guard child.process.isRunning else { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        await child.kill()
        throw InputError("whereabouts-server did not start on port \(port): \(child.text)")
    }

    /// Kills the server with SIGKILL and starts it again on the same port and database.
    func restartAfterKill(folder: URL) async throws -> RealServer {
        await child.kill()
        var lastError: (any Error)?
        for _ in 0..<50 {
            do { return try await Self.start(executable, database: database, port: port, folder: folder) } catch { lastError = error }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw lastError ?? InputError("whereabouts-server did not restart on port \(port)")
    }
}
