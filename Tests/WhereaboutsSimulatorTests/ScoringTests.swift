import Foundation
import Testing
import WhereaboutsCore

@testable import WhereaboutsSimulator

@Suite("Scoring")
struct ScoringTests {
    typealias S = SimFixtures

    private func region(_ id: String, at metres: Double, radius: Double) -> Region {
        try! Region(id: id, center: Geodesy.destination(from: S.home, distance: metres, bearing: 90), radius: radius)
    }

    private func event(_ id: String, _ kind: RegionEventKind, _ t: Double, initial: Bool = false) -> RegionEvent {
        RegionEvent(regionID: id, kind: kind, timestamp: Date(timeIntervalSince1970: S.start + t), initial: initial, fix: nil)
    }

    @Test("truth enters within r − h and exits beyond r + h")
    func truthTransitions() {
        let truth = S.path(speed: 1, moving: 2000)
        let events = TruthTransitions.compute(truth: truth, regions: [region("a", at: 1000, radius: 200)])
        #expect(events.map(\.kind) == [.enter, .exit])
        #expect(abs(events[0].time - (S.start + 825)) <= 1)
        #expect(abs(events[1].time - (S.start + 1226)) <= 1)
        #expect(events.allSatisfy { !$0.optional })
    }

    @Test("a visit under 30 s is optional; starting inside is no event")
    func optionalAndInitial() {
        let fast = S.path(speed: 20, moving: 200)
        let short = TruthTransitions.compute(truth: fast, regions: [region("small", at: 1000, radius: 200)])
        #expect(short.count == 2 && short.allSatisfy(\.optional))
        let home = TruthTransitions.compute(truth: S.path(speed: 1, moving: 600), regions: [region("home", at: 0, radius: 200)])
        #expect(home.map(\.kind) == [.exit])
    }

    @Test("matching windows, earliest report, initial reports ignored")
    func matching() {
        let truth = [
            TruthEvent(regionID: "a", kind: .enter, time: S.start + 1000, optional: false),
            TruthEvent(regionID: "a", kind: .exit, time: S.start + 2000, optional: false),
            TruthEvent(regionID: "b", kind: .enter, time: S.start + 500, optional: true),
        ]
        let reports = [
            event("a", .enter, 939), event("a", .enter, 950), event("a", .exit, 2901),
            event("b", .enter, 510), event("c", .enter, 10, initial: true), event("a", .dwell, 1500),
        ]
        let m = EventMatching(events: reports, truth: truth)
        #expect(m.required == 2 && m.optional == 1)
        #expect(m.reports == 4)
        #expect(m.matchedRequired == 1 && m.matchedReports == 2)
        #expect(m.latencies == [0])
        #expect(m.matchedRequiredEvents == [EventMatching.MatchedEvent(event: truth[0], latency: 0)])
        #expect(truth[0].label == "\(Int(S.start) + 1000) a enter", "as report.json lists it")
        #expect(m.recall == 0.5 && m.precision == 0.5)
        #expect(m.missed.map(\.kind) == [.exit])
        let edge = EventMatching(events: [event("a", .exit, 2900)], truth: truth)
        #expect(edge.matchedRequired == 1 && edge.latencies == [900])
        #expect(edge.matchedRequiredEvents == [EventMatching.MatchedEvent(event: truth[1], latency: 900)], "which event was how late")
    }

    @Test("an optional graze does not take the report of the real visit after it from a strategy that ignored the graze")
    func optionalTakesNoRequiredReport() {
        // d00's route-4: a 22 s graze (optional enter and exit), then the real visit 33 s later.
        let truth = [
            TruthEvent(regionID: "r", kind: .enter, time: S.start + 2705, optional: true),
            TruthEvent(regionID: "r", kind: .exit, time: S.start + 2727, optional: true),
            TruthEvent(regionID: "r", kind: .enter, time: S.start + 2738, optional: false),
            TruthEvent(regionID: "r", kind: .exit, time: S.start + 2827, optional: false),
        ]
        let once = EventMatching(events: [event("r", .enter, 2800), event("r", .exit, 2900)], truth: truth)
        #expect(once.recall == 1 && once.precision == 1)
        #expect(once.latencies == [62, 73])
        let both = EventMatching(
            events: [event("r", .enter, 2706), event("r", .exit, 2728), event("r", .enter, 2740), event("r", .exit, 2830)], truth: truth)
        #expect(both.recall == 1 && both.precision == 1, "reporting the graze as well costs nothing")
    }

    @Test("track error: exact records give 0; dwell holds the point")
    func trackError() {
        let truth = S.path(still: 100, speed: 10, moving: 100)
        let exact = stride(from: 0, through: 200, by: 10).map { i in
            LocationRecord(
                fix: try! Fix(
                    coordinate: truth.position(at: S.start + Double(i)), horizontalAccuracy: 5,
                    timestamp: Date(timeIntervalSince1970: S.start + Double(i))), trigger: .policy)
        }
        #expect((TrackError(fixes: exact, truth: truth).mean ?? 1) < 0.01)
        let held = [LocationRecord(fix: exact[0].fix, trigger: .policy, dwell: 100), exact.last!]
        let error = TrackError(fixes: held, truth: truth)
        #expect(error.samples.prefix(10).allSatisfy { $0 < 0.01 })
        #expect(TrackError(fixes: [], truth: truth).mean == nil)
    }

    @Test("energy adds up by hand")
    func energy() {
        let t0 = 1000.0
        let timeline: [TimelineRecord] = [
            .app(t: t0, state: .running), .gps(t: t0, state: .acquiring), .gps(t: t0 + 15, state: .tracking),
            .wifiScan(t: t0 + 20), .wifiScan(t: t0 + 30), .wifiScan(t: t0 + 40),
            .upload(t: t0 + 50, bytes: 100), .upload(t: t0 + 55, bytes: 100), .gps(t: t0 + 115, state: .off),
            .app(t: t0 + 200, state: .suspended), .wake(t: t0 + 300), .cellFix(t: t0 + 301),
        ]
        let meter = EnergyMeter(timeline: timeline, start: t0, end: t0 + 400)
        #expect(abs(meter.gps - (0.45 * 15 + 0.30 * 100)) < 1e-9)
        #expect(abs(meter.wifi - 1.35) < 1e-9)
        #expect(abs(meter.network - (0.31 + 1.06 * (5 + 11.6))) < 1e-9)
        #expect(abs(meter.app - 0.02 * 200) < 1e-9)
        #expect(abs(meter.wakes - 0.05) < 1e-9 && abs(meter.cell - 0.05) < 1e-9)
        #expect(EnergyMeter.reference(duration: 100) == 30)
    }

    @Test("the sample commute is deterministic and shaped as promised")
    func sample() {
        let a = SampleScenario.commute()
        let b = SampleScenario.commute()
        #expect(a.trace == b.trace && a.regions == b.regions)
        #expect(a.regions.contains { $0.id == "home" } && a.regions.contains { $0.id == "dest" })
        let minutes = (a.trace.last!.time - a.trace.first!.time) / 60
        #expect(minutes > 20 && minutes < 40)
    }
}
