import Foundation
import Testing

/// `whereabouts-server bench` on a tiny load, so the operator's benchmark keeps running.
@Suite("whereabouts-server bench")
struct BenchCommandTests {
    @Test("bench runs every scenario over HTTP and reports rates, latencies and the baseline ratio; it never replaces an existing database")
    func tinyRun() async throws {
        let database = ServerProcess.temporaryDatabase(named: "bench")
        let ran = try await ServerProcess.run([
            "bench", "--database", database, "--batch", "1,10", "--connections", "2", "--duration", "0.3", "--runs", "1", "--json",
        ])
        #expect(ran.status == 0, "\(ran.errors)")
        for scenario in ["batch of 1 ", "batch of 10 ", "/pub (OwnTracks)"] { #expect(ran.output.contains(scenario), "\(ran.output)") }
        let last = try #require(ran.output.split(separator: "\n").last)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        for key in ["batch1LocationsPerSecond", "batch10LocationsPerSecond", "pubLocationsPerSecond"] {
            #expect((fields[key] as? Double ?? 0) > 0, "\(key) in \(last)")
        }
        #expect(fields["batch1Ratio"] as? Double == 1)
        #expect((fields["pubP99Ms"] as? Double ?? 0) > 0)

        let path = String(database.dropFirst("sqlite:".count))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let again = try await ServerProcess.run(["bench", "--database", database, "--batch", "1", "--duration", "0.1", "--runs", "1"])
        #expect(again.status != 0 && again.errors.contains("already exists"), "\(again.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "bench replaced an existing database")
    }

    @Test(
        "on PostgreSQL, bench refuses a database that already holds devices and adds nothing to it",
        .enabled(
            if: ProcessInfo.processInfo.environment["WHEREABOUTS_TEST_POSTGRES"] != nil,
            "WHEREABOUTS_TEST_POSTGRES is not set: bench's refusal of a populated PostgreSQL database is not checked"))
    func refusesPopulatedPostgres() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["WHEREABOUTS_TEST_POSTGRES"])
        _ = try await ServerProcess.addDevice("refusal-\(UUID().uuidString.prefix(8))", database: url)
        let benchDevices = {
            try await ServerProcess.run(["device", "list", "--database", url]).output.split(separator: "\n").filter {
                $0.hasPrefix("bench-")
            }
        }
        let before = try await benchDevices()
        let ran = try await ServerProcess.run(["bench", "--database", url, "--batch", "1", "--duration", "0.1", "--runs", "1"])
        #expect(ran.status != 0 && ran.errors.contains("already holds devices"), "\(ran.errors)")
        #expect(try await benchDevices() == before, "bench added its devices to the database")
    }
}
