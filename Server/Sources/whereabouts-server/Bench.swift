import ArgumentParser
import Foundation
import Logging
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsServer

/// `whereabouts-server bench`: ingest rate with batches of 1, 100 and 1000 from a load generator in
/// the same process, the p99 latency of 100-location batches under that load, and memory while a
/// long history streams out.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Measure ingest rate, latency under load and export memory.")

    @OptionGroup var database: DatabaseOption

    @Option(help: "Locations sent with batches of 1000 (batches of 100 send a tenth, batches of 1 a hundredth).")
    var locations: Int = 200_000

    @Option(help: "Locations in the history streamed out to measure memory (0 skips it).")
    var export: Int = 1_000_000

    @Option(help: "Concurrent client connections.")
    var connections: Int = 4

    @Flag(help: "End with one JSON object on the last line.")
    var json = false

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let (locations, export, connections, json) = (locations, export, connections, json)
        let url = try database.url()
        if case .sqlite(let path) = url { try? FileManager.default.removeItem(atPath: path) }
        try await ServerApp.withStorage(url, logger: logger) { [logger] storage in
            let (ports, continuation) = AsyncStream<Int>.makeStream()
            let server = Task {
                try await ServerApp.serve(storage: storage, host: "127.0.0.1", port: 0, settings: ServerSettings(rateLimit: 0), logger: logger) {
                    continuation.yield($0)
                }
            }
            var port = 0
            for await bound in ports {
                port = bound
                break
            }
            let load = LoadGenerator(base: URL(string: "http://127.0.0.1:\(port)")!, storage: storage, connections: connections)
            var results: [(String, JSONScalar)] = [("storage", .string(storage.kind))]
            for batch in [1, 100, 1000] {
                let count = max(2000, locations * batch / 1000)
                let rate = try await load.ingestRate(batchSize: batch, total: count)
                print("\(storage.kind) ingest, batches of \(batch): \(Int(rate)) locations/s (\(count) locations, \(connections) connections)")
                results.append(("batch\(batch)PerSecond", .number(rate.rounded())))
            }
            let latency = try await load.latencyUnderLoad(total: locations)
            print(String(format: "%@ 100-location batch latency under batch-1000 load: p50 %.1f ms, p99 %.1f ms", storage.kind, latency.p50 * 1000, latency.p99 * 1000))
            results += [("p50LatencyMs", .number((latency.p50 * 10_000).rounded() / 10)), ("p99LatencyMs", .number((latency.p99 * 10_000).rounded() / 10))]
            if export > 0 {
                let memory = try await load.exportMemory(locations: export)
                print("export of \(memory.rows) locations (\(memory.bytes / 1_000_000) MB of JSON): resident memory \(memory.before / 1_000_000) MB before, peak \(memory.peak / 1_000_000) MB, growth \(String(format: "%.1f", Double(memory.peak - memory.before) / 1e6)) MB")
                results += [("exportRows", .integer(memory.rows)), ("exportBytes", .integer(memory.bytes)), ("exportGrowthBytes", .integer(memory.peak - memory.before))]
            }
            if json { print(JSONLine(results).text) }
            server.cancel()
            _ = await server.result
        }
    }
}

/// Sends pre-encoded batches from concurrent connections.
struct LoadGenerator: Sendable {
    let base: URL
    let storage: any TrackStorage
    let connections: Int
    private let transport = URLSessionTransport()

    init(base: URL, storage: any TrackStorage, connections: Int) {
        self.base = base
        self.storage = storage
        self.connections = max(1, connections)
    }

    private func device() async throws -> (String, String) {
        let id = "bench-\(UUID().uuidString.prefix(8).lowercased())"
        let token = Tokens.generate()
        try await storage.addDevice(id: id, tokenHash: Tokens.hash(token), at: Date())
        return (id, token)
    }

    private func bodies(batchSize: Int, total: Int) -> [Data] {
        let start = Date().addingTimeInterval(-Double(total) - 3600)
        let encoder = JSONEncoder()
        return stride(from: 0, to: total, by: batchSize).map { first in
            let locations = (first..<min(total, first + batchSize)).map { i in
                WireLocation(
                    id: UUID().uuidString.lowercased(), timestamp: Timestamp.format(start.addingTimeInterval(Double(i))),
                    latitude: 48.85 + Double(i % 5000) * 1e-5, longitude: 2.35 + Double(i / 5000) * 1e-5, accuracy: 5, altitude: 35, speed: 1.3,
                    trigger: "policy")
            }
            return try! encoder.encode(LocationBatch(locations: locations))
        }
    }

    private func post(_ body: Data, device: String, token: String) async throws -> Double {
        let request = OutgoingRequest(
            method: "POST", url: base.appendingPathComponent("v1/devices/\(device)/locations"),
            headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"], body: body)
        let clock = ContinuousClock(), start = clock.now
        let reply = try await transport.send(request, timeout: 60)
        guard reply.status == 200 else { throw ValidationError("the server answered \(reply.status): \(reply.bodyPrefix)") }
        return (clock.now - start).seconds
    }

    /// Locations per second with `connections` clients sending batches of `batchSize`.
    func ingestRate(batchSize: Int, total: Int) async throws -> Double {
        let (device, token) = try await device()
        let bodies = bodies(batchSize: batchSize, total: total)
        let clock = ContinuousClock(), start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<connections {
                group.addTask {
                    for index in stride(from: lane, to: bodies.count, by: connections) {
                        _ = try await post(bodies[index], device: device, token: token)
                    }
                }
            }
            try await group.waitForAll()
        }
        return Double(total) / (clock.now - start).seconds
    }

    /// Latency of 100-location batches sent one after another while the other connections send
    /// batches of 1000.
    func latencyUnderLoad(total: Int) async throws -> (p50: Double, p99: Double) {
        let (device, token) = try await device()
        let heavy = bodies(batchSize: 1000, total: total)
        let probes = bodies(batchSize: 100, total: 20_000)
        var samples: [Double] = []
        try await withThrowingTaskGroup(of: [Double].self) { group in
            for lane in 0..<max(1, connections - 1) {
                group.addTask {
                    for index in stride(from: lane, to: heavy.count, by: max(1, connections - 1)) {
                        _ = try await post(heavy[index], device: device, token: token)
                    }
                    return []
                }
            }
            group.addTask {
                var latencies: [Double] = []
                for body in probes { latencies.append(try await post(body, device: device, token: token)) }
                return latencies
            }
            for try await result in group { samples += result }
        }
        samples.sort()
        return (samples[samples.count / 2], samples[min(samples.count - 1, samples.count * 99 / 100)])
    }

    /// Loads `locations` into one device, then streams its history through curl to /dev/null while
    /// sampling this process's resident memory.
    func exportMemory(locations: Int) async throws -> (rows: Int, bytes: Int, before: Int, peak: Int) {
        let (device, token) = try await device()
        let start = Date().addingTimeInterval(-Double(locations) - 3600)
        for first in stride(from: 0, to: locations, by: 5000) {
            let records = (first..<min(locations, first + 5000)).map { i in
                LocationRecord(
                    fix: try! Fix(coordinate: Coordinate(latitude: 35 + Double(i % 9000) * 1e-4, longitude: 139), horizontalAccuracy: 7, timestamp: start.addingTimeInterval(Double(i))),
                    trigger: .policy)
            }
            _ = try await storage.ingest(records, device: device, at: Date())
        }
        let before = residentBytes()
        let sampler = Task {
            var peak = before
            while !Task.isCancelled {
                peak = max(peak, residentBytes())
                try? await Task.sleep(nanoseconds: 50_000_000)
            }
            return peak
        }
        let bytes: Int = try await withCheckedThrowingContinuation { done in
            Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                process.arguments = ["-sf", "-o", "/dev/null", "-w", "%{size_download}", "-H", "Authorization: Bearer \(token)", base.absoluteString + "/v1/devices/\(device)/locations"]
                let pipe = Pipe()
                process.standardOutput = pipe
                do {
                    try process.run()
                    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    done.resume(returning: Int(text) ?? 0)
                } catch {
                    done.resume(throwing: error)
                }
            }.start()
        }
        sampler.cancel()
        return (locations, bytes, before, await sampler.value)
    }
}

/// This process's resident memory in bytes (Linux `/proc/self/statm`).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * 4096 : 0
}
