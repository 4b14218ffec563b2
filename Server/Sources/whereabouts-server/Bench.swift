import ArgumentParser
import Foundation
import Logging
import WhereaboutsCore
import WhereaboutsServer

/// `whereabouts-server bench`: runs the real server in this process on 127.0.0.1 and loads it over
/// real HTTP from keep-alive connections: the batch API at each batch size and OwnTracks `/pub`,
/// each for a fixed time, several runs each; prints the medians (locations/s, requests/s, p50/p99
/// latency) and each scenario's ratio to batches of 1, the baseline. Optionally measures memory
/// while a long history streams out.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure ingest throughput and latency over HTTP, and memory during an export.",
        discussion: """
            The server and the load generator share this process and its cores. Each run uses a fresh device, and every \
            location sent is new, so every one is inserted. A 200 means the rows were committed and synced.
            """)

    @OptionGroup var database: DatabaseOption

    @Option(help: "Batch sizes for POST /v1/devices/{id}/locations, comma-separated (the first is the baseline).")
    var batch: String = "1,100,1000"

    @Flag(inversion: .prefixedNo, help: "Also load OwnTracks POST /pub, one location per request.")
    var pub = true

    @Option(
        help:
            "Record ids the batch API gets: ordered (version 7, as our clients send) or random (version 4). /pub sends no _id, as the OwnTracks apps do."
    )
    var ids: BenchIDs = .ordered

    @Flag(
        help:
            "Send the same timestamps in every request (the bench before version 7 ids): a timestamp's index entries then pile up in one place, and every location writes a page of its own."
    )
    var fixedTimes = false

    @Option(help: "Locations stored (for other devices, with the same kind of ids) before the runs, so they write into full indexes.")
    var prefill: Int = 0

    @Option(help: "Concurrent keep-alive connections.")
    var connections: Int = 8

    @Option(help: "Seconds per run.")
    var duration: Double = 5

    @Option(help: "Runs per scenario; the medians are printed.")
    var runs: Int = 3

    @Option(help: "Locations in the history streamed out to measure memory (0 skips it).")
    var export: Int = 0

    @Flag(help: "End with one JSON object on the last line.")
    var json = false

    func validate() throws {
        guard (try? sizes()) != nil else {
            throw ValidationError("--batch \(batch): give sizes from 1 to 1000 separated by commas, such as 1,100,1000")
        }
        guard connections >= 1, duration > 0, runs >= 1, prefill >= 0 else {
            throw ValidationError("--connections and --runs must be at least 1, --duration above 0 and --prefill not negative")
        }
    }

    private func sizes() throws -> [Int] {
        let sizes = batch.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !sizes.isEmpty, sizes.allSatisfy({ $0.map { (1...1000).contains($0) } ?? false }) else { throw ValidationError(batch) }
        return sizes.compactMap { $0 }
    }

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let scenarios = try sizes().map(BenchScenario.batch) + (pub ? [.pub] : [])
        let (connections, duration, runs, export, json, ids, prefill) = (connections, duration, runs, export, json, ids, prefill)
        let freshTimes = !fixedTimes
        let url = try database.url()
        if case .sqlite(let path) = url, FileManager.default.fileExists(atPath: path) {
            throw ValidationError(
                "bench fills a database of its own, and \(path) already exists (the default and WHEREABOUTS_DATABASE name the server's); it is left alone: give --database sqlite:PATH naming a file that does not exist yet"
            )
        }
        let populated = ValidationError(
            "bench fills a database of its own, and this one already holds devices (WHEREABOUTS_DATABASE may name the server's); nothing was added: give --database naming an empty database"
        )
        // A database at the current schema is looked at read-only first, so one that holds devices is
        // refused before anything (a migration included) writes to it.
        if (try? await ServerApp.withStorage(url, readOnly: true, logger: logger) { try await $0.devices().isEmpty }) == false {
            throw populated
        }
        try await ServerApp.withStorage(url, logger: logger) { [logger] storage in
            if !(try await storage.devices()).isEmpty { throw populated }
            if prefill > 0 {
                let clock = ContinuousClock()
                let began = clock.now
                try await BenchPrefill.fill(prefill, ids: ids, storage: storage)
                print("prefilled \(prefill) locations in \(clock.now - began)")
            }
            let (ports, continuation) = AsyncStream<Int>.makeStream()
            let server = Task {
                try await ServerApp.serve(
                    storage: storage, host: "127.0.0.1", port: 0, settings: ServerSettings(rateLimit: 0), logger: logger
                ) {
                    continuation.yield($0)
                }
            }
            var port = 0
            for await bound in ports {
                port = bound
                break
            }
            let load = BenchLoad(port: port, connections: connections, duration: duration, ids: ids, freshTimes: freshTimes)
            print(
                "\(storage.kind): \(ids) record ids, \(freshTimes ? "fresh" : "fixed") timestamps, \(connections) connections, \(duration) s per run, median of \(runs) runs; the load generator shares this process and its cores"
            )
            print("durable acknowledgement: \(Self.durability(storage.kind))")
            let report = BenchReport()
            report.printHeader()
            for scenario in scenarios {
                var results: [BenchRun] = []
                for _ in 0..<runs { results.append(try await load.run(scenario, storage: storage)) }
                report.add(results)
            }
            var fields: [(String, JSONScalar)] =
                [("storage", .string(storage.kind)), ("connections", .integer(connections))] + report.fields
            if export > 0 {
                let memory = try await ExportMemory.measure(locations: export, port: port, storage: storage)
                print(
                    "export of \(memory.rows) locations (\(memory.bytes / 1_000_000) MB of JSON): resident memory \(memory.before / 1_000_000) MB before, peak \(memory.peak / 1_000_000) MB, growth \(String(format: "%.1f", Double(memory.peak - memory.before) / 1e6)) MB"
                )
                fields += [
                    ("exportRows", .integer(memory.rows)), ("exportBytes", .integer(memory.bytes)),
                    ("exportGrowthBytes", .integer(memory.peak - memory.before)),
                ]
            }
            if json { print(JSONLine(fields).text) }
            server.cancel()
            _ = await server.result
        }
    }

    /// What a 200 promises on `kind`.
    private static func durability(_ kind: String) -> String {
        kind == "sqlite"
            ? "a 200 goes out after the transaction holding its rows is committed in WAL mode with synchronous=FULL (the WAL fsynced); concurrent requests share one transaction and one fsync (group commit)"
            : "a 200 goes out after PostgreSQL's COMMIT returned (synchronous_commit as the server has it, on by default: the WAL flushed)"
    }
}
