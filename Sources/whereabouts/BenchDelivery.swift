import ArgumentParser
import Foundation
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore
import WhereaboutsTestServer

/// `whereabouts bench delivery`: store append throughput (one transaction per fix against batched),
/// bytes on disk per fix, and end-to-end upload throughput to a server on loopback (batches of 500
/// against batches of 1).
struct BenchDelivery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delivery", abstract: "Store append and upload throughput against in-process baselines.")

    @Option(help: "Fixes appended one transaction each (the baseline).")
    var single: Int = 5_000

    @Option(help: "Fixes appended in batches, and uploaded in batches.")
    var fixes: Int = 100_000

    @Option(help: "Records per upload request.")
    var batchSize: Int = 500

    @Flag(help: "End with one JSON object on the last line.")
    var json = false

    func run() async throws {
        guard single > 0, fixes > 0, (1...1000).contains(batchSize) else {
            throw InputError("--single and --fixes must be positive and --batch-size in 1...1000")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("whereabouts-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let now = EngineClock.system.now()

        let singleStore = try SQLiteLocationStore(path: folder.appendingPathComponent("single.sqlite").path)
        let singleRate = try Self.rate(single) { for record in Self.records(single) { try singleStore.append([record], at: now) } }
        let store = try SQLiteLocationStore(path: folder.appendingPathComponent("batched.sqlite").path)
        let all = Self.records(fixes)
        let batchedRate = try Self.rate(fixes) {
            for start in stride(from: 0, to: all.count, by: 500) {
                try store.append(Array(all[start..<min(all.count, start + 500)]), at: now)
            }
        }
        let bytes = Double(try store.summary().bytes) / Double(fixes)
        print("append, one transaction per fix:  \(Int(singleRate)) fixes/s (\(single) fixes)")
        print(
            "append, 500 per transaction:      \(Int(batchedRate)) fixes/s (\(fixes) fixes), \(String(format: "%.1f", batchedRate / singleRate))x"
        )
        print("bytes on disk per stored fix:     \(String(format: "%.1f", bytes))")

        let server = try await TestServer.start()
        let baselineCount = min(fixes, 2_000)
        let baselineStore = try SQLiteLocationStore(path: folder.appendingPathComponent("baseline.sqlite").path)
        try baselineStore.append(Self.records(baselineCount), at: now)
        let baselineRate = try await Self.uploadRate(baselineStore, server: server, batchSize: 1, count: baselineCount)
        let uploadRate = try await Self.uploadRate(store, server: server, batchSize: batchSize, count: fixes)
        let held = await server.state.locations.count
        await server.stop()
        print("upload, batches of 1:             \(Int(baselineRate)) fixes/s (\(baselineCount) fixes)")
        print(
            "upload, batches of \(batchSize):           \(Int(uploadRate)) fixes/s (\(fixes) fixes), \(String(format: "%.1f", uploadRate / baselineRate))x"
        )
        print("server holds \(held) of \(fixes + baselineCount) records sent")
        if json {
            print(
                JSONLine([
                    ("appendSinglePerSecond", .number(singleRate.rounded())), ("appendBatchedPerSecond", .number(batchedRate.rounded())),
                    ("bytesPerFix", .number((bytes * 10).rounded() / 10)), ("uploadBatch1PerSecond", .number(baselineRate.rounded())),
                    ("uploadPerSecond", .number(uploadRate.rounded())), ("batchSize", .integer(batchSize)),
                    ("serverHolds", .integer(held)), ("sent", .integer(fixes + baselineCount)),
                ]).text)
        }
    }

    private static func records(_ count: Int) -> [LocationRecord] {
        let start = Date().addingTimeInterval(-Double(count) - 60)
        return (0..<count).map { i in
            let fix = try! Fix(
                coordinate: Coordinate(latitude: 52.5 + Double(i % 1000) * 1e-5, longitude: 13.4 + Double(i / 1000) * 1e-5),
                horizontalAccuracy: 4.8, altitude: 34.2, speed: 1.4, course: 87.5, timestamp: start.addingTimeInterval(Double(i)),
                source: .gps)
            return LocationRecord(fix: fix, trigger: .policy)
        }
    }

    private static func rate(_ count: Int, _ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return Double(count) / Stopwatch.seconds(clock.now - start)
    }

    private static func uploadRate(_ store: SQLiteLocationStore, server: TestServer, batchSize: Int, count: Int) async throws -> Double {
        let uploader = Uploader(
            queue: store, endpoint: WhereaboutsBatchEndpoint(base: server.baseURL, device: "bench", maxBatchSize: batchSize),
            configuration: UploaderConfiguration(batchSize: batchSize))
        let clock = ContinuousClock()
        let start = clock.now
        let report = await uploader.flush(.manual, acknowledging: [])
        let seconds = Stopwatch.seconds(clock.now - start)
        guard report.delivered == count, report.stoppedBy == nil else {
            throw InputError("the upload did not finish: \(report)")
        }
        return Double(count) / seconds
    }
}
