import ArgumentParser
import Foundation
import WhereaboutsCore

/// `whereabouts bench faults --count N`: the fault campaign. Drives the real CLI and the real
/// server with N injected faults and counts records recorded, on the server, lost and duplicated.
struct BenchFaults: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faults", abstract: "Drive the real CLI and server through N injected faults; count what was lost and duplicated.",
        discussion: """
            Each run of `whereabouts simulate --store --upload` records into one store and uploads through a fault-injecting \
            proxy in front of a real whereabouts-server, with one fault: SIGKILL of the CLI or the server at a random instant, \
            a 5xx, a hang past the client's timeout, a connection reset after the server stored the batch, 413, 429, a clock \
            jump (through faketime), three zeroed header bytes of an index page of the store, a full disk mid-run (a \
            file-size limit of 16–127 KiB that the write-ahead log runs into) or while a new store is created (4–36 KiB), an \
            invalid device id (given to the CLI, or refused by the server with 400 bad_device_id), or a neighbour on the same \
            address retrying a stale token until it is throttled. Then rejected records are requeued, everything is flushed \
            without faults, and the server's history is compared with the store. The campaign fails when a fault kind cannot \
            be injected (a clock jump without faketime), or when anything was lost, duplicated or stranded, a run exited 0 \
            after losing writes or with an invalid device id, a store that could not be created left files, or a valid \
            request was throttled for a neighbour's failures. Needs the server built: \
            `cd Server && swift build --product whereabouts-server`.
            """)

    @Option(help: "Faults to inject (at least 1).")
    var count: Int = 100

    @Option(help: "Seed of the fault sequence.")
    var seed: UInt64 = 1

    @Option(help: "The whereabouts-server executable (default: $WHEREABOUTS_SERVER, else Server/.build/debug above this program).")
    var server: String?

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    func run() async throws {
        guard count >= 1 else { throw InputError("--count \(count) is not a positive number of faults") }
        let serverExecutable = try RealServer.locate(server)
        let faketime = Self.onPath("faketime")
        let whereabouts = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let bar = json ? nil : ProgressBar(total: count)
        let tally = try await FaultCampaign(
            whereabouts: whereabouts, serverExecutable: serverExecutable, faketime: faketime, count: count, seed: seed,
            progress: { bar?.advance(label: $0.rawValue) }
        ).run()
        bar?.finish()
        if let failure = tally.lastFailure {
            StandardError.write("whereabouts: \(tally.failedRuns) runs failed; the last said:\n\(failure)\n")
        }
        print(json ? Self.json(tally) : Self.table(tally))
        let problems = tally.problems
        guard problems.isEmpty else {
            StandardError.write("whereabouts: the fault campaign failed: \(problems.joined(separator: "; "))\n")
            throw ExitCode.failure
        }
    }

    /// The first executable file named `name` in the folders of `PATH` (where Debian, Homebrew and
    /// a user's own installs all put `faketime`); `nil` when there is none.
    static func onPath(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func table(_ tally: CampaignTally) -> String {
        var lines = [
            "faults injected \(tally.injected) in \(tally.runs) CLI runs (\(tally.failedRuns) failed, \(tally.salvages) salvaged a damaged store)"
        ]
        for kind in FaultKind.allCases {
            lines.append("  \(kind.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)) \(tally.faults[kind, default: 0])")
        }
        lines += [
            "records recorded   \(tally.recorded)", "on the server      \(tally.onServer)", "lost               \(tally.lost)",
            "duplicated         \(tally.duplicated)", "unknown to store   \(tally.unknown)", "salvage lost       \(tally.salvageLost)",
            "requeued at end    \(tally.requeued) (\(tally.rejectedTooLarge) by an injected 413 on a batch of one)",
            "stranded           \(tally.stranded)",
            "silent failures    \(tally.silentFailures)", "creation leftovers \(tally.leftovers)",
            "neighbour lockouts \(tally.lockouts)",
        ]
        return lines.joined(separator: "\n")
    }

    static func json(_ tally: CampaignTally) -> String {
        var members: [(String, JSONScalar)] = [("faults", .integer(tally.injected))]
        for kind in FaultKind.allCases { members.append(("\(kind)", .integer(tally.faults[kind, default: 0]))) }
        members += [
            ("recorded", .integer(tally.recorded)), ("onServer", .integer(tally.onServer)), ("lost", .integer(tally.lost)),
            ("duplicated", .integer(tally.duplicated)), ("unknown", .integer(tally.unknown)), ("salvageLost", .integer(tally.salvageLost)),
            ("requeued", .integer(tally.requeued)), ("rejectedTooLarge", .integer(tally.rejectedTooLarge)),
            ("stranded", .integer(tally.stranded)),
            ("silentFailures", .integer(tally.silentFailures)), ("leftovers", .integer(tally.leftovers)),
            ("lockouts", .integer(tally.lockouts)), ("runs", .integer(tally.runs)), ("failedRuns", .integer(tally.failedRuns)),
            ("salvages", .integer(tally.salvages)),
        ]
        return JSONLine(members).text
    }
}
