import ArgumentParser
import Foundation

/// The `whereabouts` command: simulate tracking strategies on GPS traces, inspect stores, and benchmark
/// the engine.
@main
struct Whereabouts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whereabouts",
        abstract: "Location tracking engine: simulate strategies on real GPS traces, track a gpsd receiver, benchmark the core.",
        subcommands: [Simulate.self, Scenarios.self, Track.self, StoreCommand.self, Bench.self])

    /// Runs the command, mapping every input problem to exit status 2 with its message on stderr.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as InputError {
            StandardError.write("whereabouts: \(error)\n")
            Foundation.exit(2)
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is CleanExit {
                exit(withError: error)
            }
            StandardError.write(fullMessage(for: error) + "\n")
            Foundation.exit(code == .failure ? 1 : 2)
        }
    }
}

/// A problem with what the user gave the command: a file, a flag's value, a folder.
struct InputError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }

    /// Wraps any error raised while reading user input, keeping its message.
    init(reading error: any Error) { self.description = "\(error)" }
}
