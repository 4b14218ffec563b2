import Foundation
import Testing

/// `whereabouts-server bench` on a tiny load, so the operator's benchmark keeps running.
@Suite("whereabouts-server bench")
struct BenchCommandTests {
    @Test("bench runs every scenario over HTTP and reports rates, latencies and the baseline ratio")
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
    }
}
