import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsServer
import WhereaboutsSimulator
import WhereaboutsStore
import WhereaboutsTestSupport

@Suite("End to end: the engine on the simulated phone records a shared scenario and uploads it to the server as it runs")
struct EndToEndTests {
    /// `../shared/scenarios/d00` when present, else the bundled synthetic commute.
    private func scenario() throws -> Scenario {
        let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../shared/scenarios")
            .standardized
        let trace = shared.appendingPathComponent("d00.gpx")
        let regions = shared.appendingPathComponent("d00.regions.geojson")
        guard FileManager.default.fileExists(atPath: trace.path) else {
            print("note: ../shared/scenarios is absent; the end-to-end test uses the synthetic commute")
            return SampleScenario.commute()
        }
        return Scenario(name: "d00", trace: try GPXFile.readTrace(at: trace, now: Date()), regions: try RegionFile.read(at: regions))
    }

    @Test("the server's history equals the recorded fixes exactly", arguments: StorageKind.available)
    func recordAndUpload(_ kind: StorageKind) async throws {
        let scenario = try scenario()
        try await withLiveServer(kind) { server in
            let folder = temporaryFolder("e2e")
            let path = folder.appendingPathComponent("phone.sqlite").path
            let strategy = try #require(Strategy.named("continuous"))
            let target = UploadTarget.server(
                base: server.base, device: server.device, token: server.token, batchSize: 250, requestTimeout: 30)
            _ = try await ScenarioRunner.run(scenario, strategy: strategy, pad: 600, seed: 1, storePath: path, upload: target)
            let store = try SQLiteLocationStore(path: path)
            let deliveredDuringTheRun = try store.allRecords().filter { $0.state == .delivered }.count
            #expect(deliveredDuringTheRun > 0, "the engine uploads while the scenario plays")
            let uploader = Uploader(
                queue: store, endpoint: WhereaboutsBatchEndpoint(base: server.base, device: server.device, maxBatchSize: 250),
                credentials: FixedCredential(.bearer(server.token)), configuration: UploaderConfiguration(batchSize: 250))
            let report = await uploader.drain(until: Date().addingTimeInterval(60), acknowledging: [])
            #expect(report.stoppedBy == nil)
            let recorded = try store.allRecords().map(\.record).sorted {
                ($0.fix.timestamp, $0.id.uuidString) < ($1.fix.timestamp, $1.id.uuidString)
            }
            #expect(recorded.count > 100)
            var held: [LocationRecord] = []
            try await server.storage.history(device: server.device, from: .distantPast, to: .distantFuture, page: 1000) { held += $0 }
            #expect(held.map(\.id) == recorded.map(\.id))
            #expect(held.map(\.fix.coordinate) == recorded.map(\.fix.coordinate))
            #expect(held.map(\.dwell) == recorded.map(\.dwell))
            #expect(zip(held, recorded).allSatisfy { abs($0.fix.timestamp.timeIntervalSince($1.fix.timestamp)) < 0.001 })
            let storedEvents = try store.allEvents().map(\.record)
            #expect(!storedEvents.isEmpty)
            let heldEvents = try await server.storage.events(device: server.device, from: .distantPast, to: .distantFuture)
            #expect(Set(heldEvents.map(\.id)) == Set(storedEvents.map(\.id)))
            #expect(
                Set(heldEvents.map { "\($0.regionID) \($0.kind) \($0.initial)" })
                    == Set(storedEvents.map { "\($0.event.regionID) \($0.event.kind) \($0.event.initial)" }))
            #expect(heldEvents.contains { $0.initial }, "the states found when tracking started arrive marked initial")
        }
    }
}
