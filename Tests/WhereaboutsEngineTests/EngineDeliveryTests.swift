import Foundation
import Testing
import Whereabouts
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsSimulator
import WhereaboutsStore
import WhereaboutsTestServer
import WhereaboutsTestSupport

/// An uploader to our batch API on `url` with short timeouts.
private func uploaderFactory(_ url: URL) -> EngineHarness.UploaderFactory {
    { store, clock in
        Uploader(
            queue: store, endpoint: WhereaboutsBatchEndpoint(base: url, device: "phone-1", maxBatchSize: 100),
            configuration: UploaderConfiguration(
                batchSize: 100, requestTimeout: 10, backoff: Backoff(initial: 0.05, multiplier: 2, maximum: 0.4)),
            clock: clock)
    }
}

@Suite("LocationEngine with an uploader and a real server on 127.0.0.1")
struct EngineDeliveryTests {
    @Test("the background refresh takes one fix, records it and uploads everything pending")
    func backgroundRefresh() async throws {
        let server = try await TestServer.start()
        let app = try EngineHarness(uploader: uploaderFactory(server.baseURL))
        try await app.engine.launch(.user)
        try await app.engine.start(mode: .manual)
        await app.play(to: 30)
        #expect(try app.store.allRecords().isEmpty, "manual mode records only what is asked for")

        let (engine, phone) = (app.engine, app.phone)
        let outcome = await app.play { await engine.backgroundRefresh(until: Date(timeIntervalSince1970: phone.now + 120)) }
        guard case .ran(let fix, let delivered, let stillPending) = outcome else {
            Issue.record("the refresh did not run: \(outcome)")
            return
        }
        #expect(fix != nil)
        #expect(delivered == 1)
        #expect(stillPending == 0)
        let records = try app.store.allRecords()
        #expect(records.allSatisfy { $0.state == .delivered })
        #expect(Set(await server.state.locations.keys) == Set(records.map { $0.record.id.uuidString.lowercased() }))
        await server.stop()
    }

    @Test("an upload that ends after its engine shut down carries out nothing there: its commands wait for the next engine")
    func uploadEndingAfterShutdown() async throws {
        let server = try await TestServer.start()
        let app = try EngineHarness(uploader: uploaderFactory(server.baseURL))
        try await app.engine.launch(.user)
        try await app.engine.start(mode: .continuous())
        await app.play(to: 20)
        await server.state.queue([.setRegions([WireRegion(id: "office", latitude: 52.53, longitude: 13.41, radius: 120)])])
        await server.state.script([.hang(1)])
        let engine = app.engine
        let flushing = Task { await engine.flush() }
        #expect(await eventually { await server.state.requests >= 1 }, "the upload is on its way")
        await app.kill()
        _ = await flushing.value
        #expect(try app.store.unappliedCommands().count == 1, "kept, not carried out by the engine that shut down")
        #expect(try app.store.regions().isEmpty)
        _ = try await app.relaunch(.user)
        #expect(try await app.engine.regions().map(\.id) == ["office"], "the next engine carries it out")
        await server.stop()
    }

    @Test("commands in an upload's answer are carried out: report a location, set the regions")
    func serverCommands() async throws {
        let server = try await TestServer.start()
        let app = try EngineHarness(uploader: uploaderFactory(server.baseURL))
        try await app.engine.launch(.user)
        try await app.engine.addRegions(app.scenario.regions)
        try await app.engine.start(mode: .continuous())
        await app.play(to: 20)
        let wire = [WireRegion(id: "office", latitude: 52.53, longitude: 13.41, radius: 120)]
        await server.state.queue([.setRegions(wire), .reportLocation])
        try await app.engine.stop()
        await app.settle()
        #expect(try await app.engine.regions().map(\.id) == ["office"])
        #expect(try app.store.unappliedCommands().isEmpty)
        #expect(await server.state.acknowledged.isEmpty, "carried out, then acknowledged with the next upload")
        try await app.engine.appDidBecomeActive()
        await app.settle()
        #expect(await server.state.acknowledged == ["command-1", "command-2"])
        #expect(try app.store.commandAcknowledgements().isEmpty)
        #expect(await app.engine.snapshot().lastTriedAt == Date(timeIntervalSince1970: app.phone.now))
        await server.stop()
    }
}
