import Foundation
import Testing
import Whereabouts
import WhereaboutsCore
import WhereaboutsStore
import WhereaboutsTestSupport

@testable import WhereaboutsSimulator

@Suite("A simulated run: the engine apps run, on the simulated phone")
struct SimulationRunTests {
    private static let scenario = SampleScenario.commute()

    private static func files(_ outcome: SimulationOutcome) -> [String] {
        [RunFiles.events(outcome.run.events), RunFiles.fixes(outcome.run.fixes), RunFiles.timeline(outcome.run.timeline)]
    }

    @Test(
        "the same seed gives byte-identical events, fixes and timeline; another seed does not", arguments: [Strategy.adaptive, .continuous])
    func deterministic(_ strategy: Strategy) async throws {
        let truth = TruthPath(trace: Self.scenario.trace, pad: 600)
        let run = { (seed: UInt64) in
            try await Simulation(truth: truth, regions: Self.scenario.regions, configuration: strategy.configuration, seed: seed).run()
        }
        let first = Self.files(try await run(5))
        #expect(Self.files(try await run(5)) == first)
        #expect(Self.files(try await run(6)) != first)
        #expect(first[2].contains("\"event\":\"upload\""), "the real uploader's requests are on the timeline")
    }

    @Test("each upload's records and events are timed from when the phone knew them; a longer coalescing brings them later")
    func uploadLags() async throws {
        let truth = TruthPath(trace: Self.scenario.trace, pad: 1800)
        let lags = { (interval: TimeInterval) async throws -> (run: SimulationRun, report: StrategyAggregate) in
            var configuration = Strategy.adaptive.configuration
            configuration.minimumFlushInterval = interval
            let run = try await Simulation(truth: truth, regions: Self.scenario.regions, configuration: configuration, seed: 3).run().run
            let report = RunReport.score(
                run: run, truth: truth, regions: Self.scenario.regions, scenario: "commute", strategy: "adaptive", seed: 3)
            return (run, StrategyAggregate(reports: [report]))
        }
        let (often, oftenFigures) = try await lags(300)
        let (seldom, seldomFigures) = try await lags(3600)
        for run in [often, seldom] {
            #expect(!run.uploadLags.locations.isEmpty && !run.uploadLags.events.isEmpty)
            #expect(run.uploadLags.events.count <= run.events.count, "an event goes to the server once")
            #expect((run.uploadLags.locations + run.uploadLags.events).allSatisfy { $0 >= 0 && $0.isFinite })
            // Each event reaches the server with the first upload after its second (the in-process
            // receiver takes every request, and an upload in the event's own second left before the
            // event was stored): its lag is that upload's second less the event's time.
            let uploads = run.timeline.compactMap { if case .upload(let t, _) = $0 { t } else { nil } }
            let expected = run.events.compactMap { event in
                let t = event.timestamp.timeIntervalSince1970
                return uploads.first { $0 > t }.map { $0 - t }
            }
            #expect(
                run.uploadLags.events.sorted() == expected.sorted(), "lags \(run.uploadLags.events.sorted()) against \(expected.sorted())")
        }
        let oftenLag = try #require(oftenFigures.locationLag)
        let seldomLag = try #require(seldomFigures.locationLag)
        #expect(seldomLag.p95 > oftenLag.p95, "\(seldomLag) against \(oftenLag)")
        #expect(oftenFigures.eventLag != nil && oftenLag.median <= oftenLag.p95)
    }

    @Test("the same seed gives a store with the same record and event ids: the engine mints them from the seed it is given")
    func replayableIDs() async throws {
        let folder = temporaryFolder("simulation-ids")
        let ids = { (name: String) async throws -> [UUID] in
            let path = folder.appendingPathComponent(name).path
            _ = try await ScenarioRunner.run(Self.scenario, strategy: .adaptive, pad: 600, seed: 4, storePath: path)
            let store = try SQLiteLocationStore(path: path)
            return try store.allRecords().map(\.record.id) + store.allEvents().map(\.record.id)
        }
        let first = try await ids("a.sqlite")
        #expect(!first.isEmpty)
        #expect(try await ids("b.sqlite") == first)
    }

    @Test("a run recorded into a store leaves what a relaunched app restores")
    func storeForARelaunch() async throws {
        let folder = temporaryFolder("simulation")
        let path = folder.appendingPathComponent("phone.sqlite").path
        let result = try await ScenarioRunner.run(Self.scenario, strategy: .adaptive, pad: 600, seed: 2, storePath: path)
        let fixes = result.outcome.run.fixes
        let events = result.outcome.run.events

        let store = try SQLiteLocationStore(path: path)
        let states = try store.regionStates()
        #expect(states.count == Self.scenario.regions.count, "every region has its decided state")
        var inside: Set<String> = []
        for event in events where event.kind != .dwell {
            if event.kind == .enter { inside.insert(event.regionID) } else { inside.remove(event.regionID) }
        }
        #expect(Set(states.filter(\.inside).map(\.regionID)) == inside, "the states agree with the events")

        let phone = SimulatedPhone(truth: result.truth, seed: 2)
        let engine = LocationEngine(store: store, service: phone, clock: phone.clock)
        #expect(try await engine.launch(.locationEvent) == .tracking(Strategy.adaptive.configuration.mode))
        let records = try await engine.recordedLocations(limit: fixes.count + 1)
        #expect(records.map(\.fix.timestamp) == fixes.map(\.fix.timestamp))
        #expect(records.map(\.dwell) == fixes.map(\.dwell))
        #expect(try await engine.recordedRegionEvents(limit: events.count + 1) == events)
        #expect(Set(await engine.insideRegionIDs) == inside)
        #expect(try await engine.regions().count == Self.scenario.regions.count)
        await engine.shutdown()
        phone.kill()
    }
}
