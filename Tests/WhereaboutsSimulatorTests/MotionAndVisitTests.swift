import Foundation
import Testing
import WhereaboutsCore

@testable import WhereaboutsSimulator

@Suite("Simulated motion activity, visits and cell fixes, as evaluation.md specifies")
struct MotionAndVisitTests {
    typealias S = SimFixtures

    /// Still for `still` s, walking at 1.4 m/s for `walk` s, still again for `rest` s.
    static func stopAndGo(still: Int, walk: Int, rest: Int) -> TruthPath {
        var points: [TracePoint] = []
        var metres = 0.0
        for i in 0...(still + walk + rest) {
            if i > still && i <= still + walk { metres += 1.4 }
            points.append(
                TracePoint(coordinate: Geodesy.destination(from: S.home, distance: metres, bearing: 90), time: S.start + Double(i)))
        }
        return TruthPath(trace: points, pad: 0)
    }

    @Test("each class is reported 10–60 s after it starts; a class under 30 s never is; the same seed, the same reports")
    func activityReports() {
        let truth = Self.stopAndGo(still: 300, walk: 600, rest: 300)
        var random = SeededGenerator(seed: 3)
        let motion = SimulatedMotion(truth: truth, random: &random)
        let kinds = motion.reports.map(\.activity.kind)
        #expect(kinds.count == 3)
        for report in motion.reports {
            let delay = report.time - report.activity.start.timeIntervalSince1970
            #expect((10...60).contains(delay))
        }
        var again = SeededGenerator(seed: 3)
        #expect(SimulatedMotion(truth: truth, random: &again).reports.map(\.time) == motion.reports.map(\.time))
        let blip = Self.stopAndGo(still: 300, walk: 20, rest: 300)
        var other = SeededGenerator(seed: 3)
        #expect(SimulatedMotion(truth: blip, random: &other).reports.count == 1)
    }

    @Test("a still device's suspended app gets the walk it missed before the event that wakes it: the stay ends when the walk began")
    func missedReportsAtWake() async throws {
        let truth = Self.stopAndGo(still: 1800, walk: 900, rest: 600)
        let outcome = try await Simulation(
            truth: truth, regions: [], configuration: TrackerConfiguration(mode: .adaptive(.adaptive)), seed: 2
        ).run()
        let wakes = outcome.run.timeline.compactMap { if case .wake(let t) = $0 { return t - S.start } else { return nil } }
        let wake = try #require(wakes.first { $0 > 1800 })
        #expect(wake > 1860, "the OS wakes the app for the departure after the walk's report")
        let stay = try #require(outcome.run.fixes.max { $0.dwell < $1.dwell }, "the home stay is the longest")
        let left = stay.fix.timestamp.timeIntervalSince1970 + stay.dwell - S.start
        #expect((1790...1860).contains(left), "the stay ends when the walk began (\(left) s), not at the wake (\(wake) s)")
    }

    @Test("a visit arrives 3–10 min after 5 min within 100 m and departs 1–5 min after leaving 150 m")
    func visits() {
        let truth = Self.stopAndGo(still: 1200, walk: 600, rest: 0)
        var visits = SimulatedVisits()
        var random = SeededGenerator(seed: 5)
        var reported: [(Double, Visit)] = []
        for t in 0...1800 {
            let time = S.start + Double(t)
            reported += visits.step(at: time, position: truth.position(at: time), random: &random).map { (time, $0) }
        }
        #expect(reported.count == 2)
        guard reported.count == 2 else { return }
        let (arrivalTime, arrival) = reported[0]
        #expect(arrival.departure == nil)
        #expect((480...900).contains(arrivalTime - S.start))
        let (departureTime, departure) = reported[1]
        let left = departure.departure!.timeIntervalSince1970
        // 150 m from the place at 1.4 m/s: about 108 s after the walk starts at 1200 s.
        #expect(abs(left - (S.start + 1200 + 108)) <= 2)
        #expect((60...300).contains(departureTime - left))
    }

    @Test("significant-change and kilometre-accuracy fixes each put a cell fix on the timeline")
    func cellFixesOnTimeline() {
        var service = SimulatedLocationService()
        service.configure(LocationRequest(standard: nil, significantChange: true), at: S.start)
        let significant = S.run(&service, over: S.path(speed: 20, moving: 2000), seconds: 2000)
        let cellFixes = significant.timeline.filter { if case .cellFix = $0 { true } else { false } }
        #expect(cellFixes.count == significant.significant.count)
        var cell = SimulatedLocationService()
        cell.configure(
            LocationRequest(standard: StandardUpdates(accuracy: .kilometer, distanceFilter: nil), significantChange: false), at: S.start)
        let cruising = S.run(&cell, over: S.path(speed: 10, moving: 600), seconds: 600)
        let cruiseFixes = cruising.timeline.filter { if case .cellFix = $0 { true } else { false } }
        #expect(cruiseFixes.count == cruising.fixes.count)
        // A cell change every 500–1000 m over 6 km, plus the first fix.
        #expect((7...13).contains(cruising.fixes.count))
    }
}
