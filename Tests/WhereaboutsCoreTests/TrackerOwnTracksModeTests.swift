import Foundation
import Testing

@testable import WhereaboutsCore

/// OwnTracks' modes as its own document tells them (seed 002): move mode publishing every y seconds
/// while still, interval mode's foreground and background displacements, and marked regions.
@Suite("Tracker: OwnTracks' move and interval modes, marked regions")
struct TrackerOwnTracksModeTests {
    /// Still fixes every 10 s at home for `seconds`, fed after a first one at 0; the effects of all.
    private static func stand(_ tracker: inout Tracker, for seconds: Double) -> [TrackerEffect] {
        stride(from: 0, through: seconds, by: 10).flatMap { tracker.feed(fix(home, t: $0)) }
    }

    @Test("move mode: a 30-minute stop is one record written again every 300 s, not one merged stay")
    func moveModeRepublishesAStay() {
        var (tracker, _) = startedTracker(.move(distance: 100, interval: 300))
        let effects = Self.stand(&tracker, for: 1800)
        #expect(effects.records.count == 1)
        #expect(effects.dwellExtensions.map(\.dwell) == [300, 600, 900, 1200, 1500, 1800])
        #expect(effects.dwellExtensions.map(\.lastSeen) == [300, 600, 900, 1200, 1500, 1800].map(time))
    }

    @Test(
        "the other modes keep a stay as one record, written when something shows the device left",
        arguments: [
            TrackingMode.continuous(), .interval(interval: 60, displacement: 50), .adaptive(), .significant,
        ])
    func otherModesMergeAStay(mode: TrackingMode) {
        var (tracker, _) = startedTracker(mode)
        let effects = Self.stand(&tracker, for: 1800)
        #expect(effects.records.count == 1)
        // Adaptive goes stationary after its stop timeout (no motion report needed) and writes the
        // stay as positioning turns off, once.
        if case .adaptive(let policy) = mode {
            #expect(effects.dwellExtensions.map(\.dwell) == [policy.stopTimeout])
        } else {
            #expect(effects.dwellExtensions.isEmpty)
        }
    }

    @Test("interval mode needs 50 m in the foreground and 500 m in the background, unless told otherwise")
    func intervalModeForegroundAndBackground() {
        var (tracker, _) = startedTracker(.interval(interval: 60, displacement: 500))
        _ = tracker.handle(.lifecycle(.foreground), now: time(0))
        #expect(tracker.feed(fix(home, t: 0)).records.count == 1)
        #expect(tracker.feed(fix(point(home, metres: 60), t: 60)).records.count == 1, "60 m moved in the foreground")
        _ = tracker.handle(.lifecycle(.background), now: time(61))
        #expect(tracker.feed(fix(point(home, metres: 300), t: 200)).records.isEmpty, "240 m moved in the background")
        #expect(tracker.feed(fix(point(home, metres: 600), t: 300)).records.count == 1)
        _ = tracker.handle(.lifecycle(.foreground), now: time(301))
        _ = tracker.handle(.lifecycle(.launchedByOS), now: time(302))
        #expect(tracker.feed(fix(point(home, metres: 700), t: 400)).records.isEmpty, "an app the OS launched is in the background")

        var (explicit, _) = startedTracker(.interval(interval: 60, displacement: 500, foregroundDisplacement: 20))
        _ = explicit.handle(.lifecycle(.foreground), now: time(0))
        _ = explicit.feed(fix(home, t: 0))
        #expect(explicit.feed(fix(point(home, metres: 30), t: 60)).records.count == 1)
        var (small, _) = startedTracker(.interval(interval: 60, displacement: 30))
        _ = small.handle(.lifecycle(.foreground), now: time(0))
        _ = small.feed(fix(home, t: 0))
        #expect(small.feed(fix(point(home, metres: 35), t: 60)).records.count == 1, "the foreground never needs more than the background")
    }

    /// Bug: a parameter the named mode does not take (`interval` with `distance`, what OwnTracks'
    /// `locatorDisplacement` users reach for) was validated, then dropped without a word.
    @Test("a parameter the named mode would ignore is refused, naming the modes that take it")
    func parameterTheModeIgnoresIsRefused() throws {
        let cases: [(() throws(ValidationError) -> TrackingMode, String, String)] = [
            ({ () throws(ValidationError) in try TrackingMode.named("interval", distance: 200) }, "distance", "move, continuous"),
            ({ () throws(ValidationError) in try TrackingMode.named("significant", interval: 60) }, "interval", "move, interval"),
            ({ () throws(ValidationError) in try TrackingMode.named("move", accuracy: .best) }, "accuracy", "continuous"),
            ({ () throws(ValidationError) in try TrackingMode.named("balanced", displacement: 50) }, "displacement", "interval"),
            (
                { () throws(ValidationError) in try TrackingMode.named("continuous", foregroundDisplacement: 5) }, "foregroundDisplacement",
                "interval"
            ),
        ]
        for (make, field, takers) in cases {
            let error = validationError(make)
            #expect(error?.field == field)
            #expect(error?.problem.contains("would ignore it") == true, "\(String(describing: error))")
            #expect(error?.fix.hasSuffix(takers) == true, "\(String(describing: error))")
        }
        #expect(try TrackingMode.named("move", distance: 50, interval: 30) == .move(distance: 50, interval: 30))
        #expect(
            try TrackingMode.named("continuous", distance: 5, accuracy: .tenMeters) == .continuous(accuracy: .tenMeters, distanceFilter: 5))
        #expect(validationError { () throws(ValidationError) in try TrackingMode.named("teleport", distance: 5) }?.field == "mode")
    }

    @Test("interval mode by name: 60 s, 500 m, 50 m in the foreground; a saved mode without the split still decodes")
    func intervalModeByNameAndSaved() throws {
        #expect(try TrackingMode.named("interval") == .interval(interval: 60, displacement: 500))
        #expect(
            try TrackingMode.named("interval", foregroundDisplacement: 80)
                == .interval(interval: 60, displacement: 500, foregroundDisplacement: 80))
        #expect(throws: ValidationError.self) { try TrackingMode.named("interval", foregroundDisplacement: -1) }
        let saved = Data(#"{"interval":{"interval":60,"displacement":500}}"#.utf8)
        #expect(try JSONDecoder().decode(TrackingMode.self, from: saved) == .interval(interval: 60, displacement: 500))
        let split = TrackingMode.interval(interval: 60, displacement: 500, foregroundDisplacement: 40)
        #expect(try JSONDecoder().decode(TrackingMode.self, from: JSONEncoder().encode(split)) == split)
    }

    @Test("a marked region: centred on the location, named by its id; radius 0 unmarks; a bad radius names the fix")
    func markedRegion() throws {
        let record = LocationRecord(fix: fix(home, t: 0), trigger: .request)
        #expect(try MarkedRegion.isMark(150))
        #expect(try !MarkedRegion.isMark(0))
        let region = try MarkedRegion.region(at: record, radius: 150)
        #expect(region.id == record.id.uuidString.lowercased())
        #expect(region.center == home && region.radius == 150)
        for radius in [-1, 0.5, .nan, .infinity, MarkedRegion.maximumRadius + 1] {
            let error = try #require(throws: ValidationError.self) { try MarkedRegion.isMark(radius) }
            #expect(error.field == "radius")
            #expect(error.fix.contains("0 to unmark"))
        }
    }
}
