import Foundation
import Testing

@testable import WhereaboutsCore

/// The OS's answer for a circle handed as it is (the device's state asked for) places the device on
/// one side of the region's outline, not beyond its hysteresis band, so it proves no crossing.
@Suite("Tracker: the OS's answer for a circle handed as it is is no crossing where fixes can decide")
struct TrackerStateAnswerTests {
    private let big = region("big", point(home, metres: 2_000), radius: 300)
    /// A small region 10 m from where the device stands, 200 m inside `big`: nearer than `big`'s
    /// boundary, so with one region slot it is the one handed.
    private var near: Region { region("near", point(big.center, metres: 260), radius: 50) }

    /// A tracker in `mode` that holds the device inside `big` (a fine fix 200 m from its centre at
    /// 1 s), with `near` handed until it is removed at 30 s: `big` then comes into the plan while the
    /// device may have gone 1 km (29 s at a vehicle's speed), so it is handed as it is and the OS is
    /// asked for its state. The device would count as still at 61 s, and be handed a fitted circle.
    private func askedForBig(_ mode: TrackingMode) throws -> Tracker {
        var (tracker, _) = startedTracker(mode, regions: [big, near]) { $0.slotCount = 2 }
        let first = tracker.feed(fix(point(big.center, metres: 200), t: 1))
        #expect(first.events.map(\.regionID) == ["big"] && first.events.allSatisfy(\.initial))
        #expect(first.monitors.last?.map(\.id) == ["near", MonitoredRegion.refreshRegionID])
        let replanned = tracker.send(.removeRegions(["near"]), at: 30)
        let handed = try #require(replanned.monitors.last?.first { $0.id == "big" })
        #expect(handed == MonitoredRegion(id: "big", center: big.center, radius: 300), "handed as it is, its state asked")
        return tracker
    }

    @Test("an answer against the state held asks for a fix, which decides; a later report is a crossing again")
    func answerAgainstTheStateHeld() throws {
        var tracker = try askedForBig(.adaptive(.adaptive))
        let answer = tracker.cross("big", .outside, at: 31)
        #expect(answer.events.isEmpty, "outside the outline may be inside the band: no exit on the answer alone")
        #expect(!answer.oneShots.isEmpty || tracker.appliedRequest?.standard != nil, "a fix comes: a one-shot, or the updates running")
        #expect(tracker.geofences.state(of: "big") == .inside)
        #expect(tracker.feed(fix(point(big.center, metres: 290), t: 34)).events.isEmpty, "a fix in the band decides nothing")
        let crossing = tracker.cross("big", .outside, at: 400)
        #expect(crossing.events.map(\.kind) == [.exit], "after the answer, the OS's report is a crossing: the plain circle flips 50 m out")
    }

    @Test("a fix beyond the band reports the exit the answer hinted at")
    func fixDecides() throws {
        var tracker = try askedForBig(.adaptive(.adaptive))
        _ = tracker.cross("big", .outside, at: 31)
        let decided = tracker.feed(fix(point(big.center, metres: 340), t: 34))
        #expect(decided.events.map(\.kind) == [.exit])
    }

    @Test("an answer that agrees with the state held changes nothing; the next report is a crossing")
    func answerAgreeing() throws {
        var tracker = try askedForBig(.adaptive(.adaptive))
        #expect(tracker.cross("big", .inside, at: 31).events.isEmpty)
        #expect(tracker.cross("big", .outside, at: 400).events.map(\.kind) == [.exit])
    }

    @Test("manual tracking, with no finer fixes to come, applies the answer as a crossing")
    func manualAppliesTheAnswer() throws {
        var tracker = try askedForBig(.manual)
        #expect(tracker.cross("big", .outside, at: 31).events.map(\.kind) == [.exit])
    }

    @Test("a relaunched tracker's first plan takes no report for an answer: the OS may watch its circles from the last process")
    func firstPlanAsksNothing() throws {
        var tracker = Tracker(configuration: TrackerConfiguration(mode: .adaptive(.adaptive)), regions: [big])
        tracker.restore(lastRecord: nil, regionStates: [RegionStateRecord(regionID: "big", inside: true, since: time(0), dwelt: false)])
        _ = tracker.handle(.command(.start), now: time(1))
        let first = tracker.feed(fix(point(big.center, metres: 290), t: 2))
        let handed = try #require(first.monitors.last?.first { $0.id == "big" })
        #expect(handed == MonitoredRegion(id: "big", center: big.center, radius: 300), "in the band: handed as it is")
        #expect(tracker.statesAsked.isEmpty)
    }
}
