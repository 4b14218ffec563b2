import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Fix line: a mode that streams GPS judges regions on a line through the last fixes")
struct FixLineTests {
    /// `count` fixes a second apart from `t0`, at `position(t)` plus noise of `sigma` metres an axis,
    /// each reporting `accuracy`; the line's answer for each.
    private func judged(
        count: Int, from t0: Double = 0, accuracy: Double = 10, sigma: Double = 0, seed: UInt64 = 1,
        line: inout FixLine, position: (Double) -> Coordinate
    ) -> [(raw: Fix, judged: Fix, truth: Coordinate)] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            let t = t0 + Double(index)
            let truth = position(t)
            let noisy = point(point(truth, metres: random.gaussian(sigma: sigma), bearing: 0), metres: random.gaussian(sigma: sigma))
            let raw = fix(noisy, acc: accuracy, t: t)
            return (raw, line.judged(raw), truth)
        }
    }

    /// A line through `count` fixes a second apart around ``home``, with `sigma` metres of noise an axis.
    private func still(count: Int, sigma: Double) -> FixLine {
        var line = FixLine()
        _ = judged(count: count, sigma: sigma, line: &line) { _ in home }
        return line
    }

    @Test("a still device's noisy fixes are judged nearer where it is, at a smaller accuracy")
    func stillNoise() {
        var line = FixLine()
        let answers = judged(count: 600, accuracy: 7.5, sigma: 5, line: &line) { _ in home }
        let settled = answers.dropFirst(10)
        let rawError = settled.map { Geodesy.distance($0.raw.coordinate, $0.truth) }.reduce(0, +) / Double(settled.count)
        let lineError = settled.map { Geodesy.distance($0.judged.coordinate, $0.truth) }.reduce(0, +) / Double(settled.count)
        #expect(lineError < 0.7 * rawError, "the line's end averages the noise: \(lineError) m against \(rawError) m")
        #expect(settled.allSatisfy { $0.judged.horizontalAccuracy <= $0.raw.horizontalAccuracy })
        let judgedAccuracy = settled.map(\.judged.horizontalAccuracy).reduce(0, +) / Double(settled.count)
        #expect(judgedAccuracy < 0.8 * 7.5, "scatter as wide as the accuracy says is noise the line averages")
        #expect(settled.allSatisfy { $0.judged.timestamp == $0.raw.timestamp && $0.judged.source == $0.raw.source })
    }

    @Test("a steady walk is not trailed, and an error the fixes share keeps the fix's accuracy")
    func steadyWalk() {
        var line = FixLine()
        let offset = east(of: home, 6)
        let answers = judged(count: 20, accuracy: 10, line: &line) { t in point(offset, metres: 1.4 * t, bearing: 0) }
        for answer in answers.dropFirst(4) {
            #expect(Geodesy.distance(answer.judged.coordinate, answer.raw.coordinate) < 0.01)
            #expect(abs(answer.judged.horizontalAccuracy - 10) < 1e-6, "no scatter about the line: nothing to average")
        }
    }

    @Test("too few fixes, a coarse fix, a fast device or a step off the line: the fix as it is")
    func fixAsItIs() {
        var few = FixLine()
        let four = judged(count: 4, sigma: 5, line: &few) { _ in home }
        #expect(four.allSatisfy { $0.judged == $0.raw })

        var coarse = still(count: 8, sigma: 5)
        let wifi = fix(home, acc: 40, t: 8)
        #expect(coarse.judged(wifi) == wifi)

        var fast = FixLine()
        let driving = judged(count: 10, sigma: 2, line: &fast) { t in point(home, metres: 5 * t) }
        #expect(driving.allSatisfy { $0.judged == $0.raw }, "5 m/s is past the 3 m/s a line judges at")

        var stepping = still(count: 9, sigma: 2)
        let step = fix(east(of: home, 30), acc: 10, t: 9)
        #expect(stepping.judged(step) == step, "30 m off the line is past three standard errors of a 10 m fix: the device stepped")
    }

    @Test("fixes older than the window, or not before the one judged, are forgotten")
    func window() {
        var line = still(count: 8, sigma: 5)
        let later = fix(home, acc: 10, t: 30)
        #expect(line.judged(later) == later, "the fixes of 0–7 s are over 10 s old at 30 s")
        var replayed = still(count: 8, sigma: 5)
        let again = fix(east(of: home, 3), acc: 10, t: 2)
        #expect(replayed.judged(again) == again, "a fix older than the last one starts the line again")
    }

    @Test("a still device on the antimeridian is judged where it is, its fixes on both sides of it")
    func antimeridian() {
        var line = FixLine()
        let dateLine = coord(-16.5, 180)
        let answers = judged(count: 30, accuracy: 7.5, sigma: 5, line: &line) { _ in dateLine }
        #expect(answers.contains { $0.raw.coordinate.longitude < 0 } && answers.contains { $0.raw.coordinate.longitude > 0 })
        #expect(answers.dropFirst(10).allSatisfy { $0.judged == $0.raw || Geodesy.distance($0.judged.coordinate, dateLine) < 15 })
        #expect(answers.dropFirst(10).contains { $0.judged != $0.raw }, "the line judges across ±180°")
    }

    @Test("continuous tracking: a device lingering outside a band is seldom reported inside, as single fixes are")
    func lingering() {
        let place = region("cafe", home, radius: 100)
        let position = { (t: Double) in east(of: home, max(80, 200 - 1.2 * t)) }
        var singleFixRuns = 0
        var lineRuns = 0
        for seed in UInt64(1)...20 {
            var (tracker, _) = startedTracker(.continuous(), regions: [place])
            var engine = GeofenceEngine(regions: [place])
            var line = FixLine()
            var singleFixEntered = false
            var trackerEntered = false
            for answer in judged(count: 220, accuracy: 10, sigma: 5, seed: seed, line: &line, position: position) {
                singleFixEntered = singleFixEntered || engine.evaluate(answer.raw).contains { !$0.initial }
                trackerEntered = trackerEntered || tracker.feed(answer.raw).events.contains { !$0.initial }
            }
            if singleFixEntered { singleFixRuns += 1 }
            if trackerEntered { lineRuns += 1 }
        }
        // The device walks in and stops 80 m from the centre, 5 m short of the band's 75 m; a fix of
        // 10 m shows inside at 70 m or nearer, so 2 minutes of fixes with 5 m of noise an axis cross
        // it by chance.
        #expect(singleFixRuns >= 15, "single fixes reported an entry in \(singleFixRuns) runs of 20")
        #expect(lineRuns <= 5, "the line reported an entry in \(lineRuns) runs of 20")
    }

    @Test("continuous tracking: a device that walks in is reported, with the fix that caused it")
    func walkingIn() {
        var (tracker, _) = startedTracker(.continuous(), regions: [region("cafe", home, radius: 100)])
        let walk = (0..<150).map { fix(east(of: home, 200 - 1.2 * Double($0)), acc: 10, t: Double($0)) }
        let events = walk.flatMap { tracker.feed($0).events }.filter { !$0.initial }
        #expect(events.map(\.kind) == [.enter])
        #expect(walk.contains { $0 == events.first?.fix }, "the event carries the fix that caused it, not the line's end")
        let crossing = walk.first { Geodesy.distance($0.coordinate, home) <= 70 }
        #expect(events.first?.timestamp == crossing?.timestamp, "a steady walk is judged where it is, as a single fix would be")
    }

    @Test("only modes that keep GPS on judge on the line; the presets take GPS in bursts")
    func modes() {
        func streams(_ mode: TrackingMode) -> Bool { Tracker(configuration: TrackerConfiguration(mode: mode)).streamsGPS }
        #expect(streams(.continuous()))
        #expect(streams(.continuous(accuracy: .tenMeters)))
        #expect(!streams(.continuous(accuracy: .hundredMeters)))
        #expect(streams(.move()))
        #expect(streams(.interval(interval: 60, displacement: 100)))
        #expect(streams(.adaptive(.stopDetect)))
        #expect(!streams(.adaptive(.adaptive)))
        #expect(!streams(.adaptive(.efficient)))
        #expect(!streams(.adaptive(.responsive)))
        #expect(!streams(.significant))
        #expect(!streams(.manual))
    }
}
