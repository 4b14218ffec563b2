import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Region cushion: circles the OS flips where the hysteresis band ends")
struct RegionCushionTests {
    /// Where an emulated OS first reports `state` for `circle` as a device walks straight from
    /// `from` metres to `to` metres from its centre in 1 m steps (latency 0).
    private func flip(of circle: MonitoredRegion, from: Double, to: Double, state: RegionState) -> Double? {
        var os = RegionMonitorEmulation()
        let start = time(0)
        os.monitor([circle], at: start, position: point(circle.center, metres: from), stateDelay: 0)
        let step: Double = to > from ? 1 : -1
        for (i, distance) in stride(from: from, through: to, by: step).enumerated() {
            let reports = os.step(
                at: start.addingTimeInterval(Double(i)), position: point(circle.center, metres: distance), stateDelay: 0,
                latency: { 0 })
            if reports.contains(where: { $0.state == state }) { return distance }
        }
        return nil
    }

    @Test("the fitted circles flip a hysteresis band inside and outside the region", arguments: [150.0, 300, 480, 700, 2_000])
    func flipsAtTheBand(radius: Double) throws {
        let region = region("r", home, radius: radius)
        let band = TransitionRule.hysteresis(radius: radius)
        let entering = SlotPlanner.circle(
            for: region, state: .outside, cushion: .iOS, device: (point(home, metres: 5 * radius), 10), handed: nil)
        let leaving = SlotPlanner.circle(for: region, state: .inside, cushion: .iOS, device: (home, 10), handed: nil)
        #expect(!entering.reportsState && !leaving.reportsState)
        let enter = try #require(flip(of: entering, from: 3 * radius, to: 0, state: .inside))
        let exit = try #require(flip(of: leaving, from: 0, to: 3 * radius, state: .outside))
        #expect(abs(enter - (radius - band)) <= 1.5, "enter reported \(radius - enter) m inside")
        #expect(abs(exit - (radius + band)) <= 1.5, "exit reported \(exit - radius) m outside")
        let plainEnter = try #require(
            flip(of: MonitoredRegion(id: "r", center: home, radius: radius), from: 3 * radius, to: 0, state: .inside))
        #expect(plainEnter < enter - 20, "the plain circle waits the whole cushion inside")
    }

    @Test("a target no circle reaches gets the circle that flips nearest to it")
    func smallTargets() {
        #expect(RegionCushion.iOS.enteringRadius(flippingAt: 30) == 100)
        #expect(RegionCushion.iOS.leavingRadius(flippingAt: 120) == 100)
        #expect(RegionCushion.iOS.enteringRadius(flippingAt: 450) == 500)
        #expect(abs(RegionCushion.iOS.enteringRadius(flippingAt: 900) - 1_000) < 1e-9)
        #expect(RegionCushion.iOS.leavingRadius(flippingAt: 550) == 500)
        #expect(abs(RegionCushion.iOS.leavingRadius(flippingAt: 1_100) - 1_000) < 1e-9)
    }

    @Test("the OS flips a circle's state the cushion past its boundary, a small circle's past 100 m")
    func flipPoints() {
        let ios = RegionCushion.iOS
        #expect(!ios.flips(inside: false, atDistance: 250, radius: 300) && ios.flips(inside: false, atDistance: 249.9, radius: 300))
        #expect(!ios.flips(inside: true, atDistance: 350, radius: 300) && ios.flips(inside: true, atDistance: 350.1, radius: 300))
        #expect(ios.flips(inside: true, atDistance: 1_101, radius: 1_000) && !ios.flips(inside: true, atDistance: 1_099, radius: 1_000))
        #expect(ios.flips(inside: false, atDistance: 49, radius: 40) && !ios.flips(inside: false, atDistance: 51, radius: 40))
        #expect(ios.flips(inside: true, atDistance: 151, radius: 40) && !ios.flips(inside: true, atDistance: 149, radius: 40))
        for target in [275.0, 450, 900] {
            let entering = ios.enteringRadius(flippingAt: target)
            #expect(ios.flips(inside: false, atDistance: target - 0.01, radius: entering))
            #expect(!ios.flips(inside: false, atDistance: target + 0.01, radius: entering))
        }
    }

    @Test("a region is handed as it is, with its state asked for, unless the OS will find the engine's state in the fitted circle")
    func plainWhenUnsure() throws {
        let big = region("big", home, radius: 300)
        let plain = MonitoredRegion(id: "big", center: home, radius: 300)
        let far = point(home, metres: 1_000)
        #expect(SlotPlanner.circle(for: big, state: nil, cushion: .iOS, device: (far, 10), handed: nil) == plain, "undetermined")
        #expect(SlotPlanner.circle(for: big, state: .outside, cushion: .iOS, device: nil, handed: nil) == plain, "position unknown")
        let nearOutside = point(home, metres: 320)
        #expect(
            SlotPlanner.circle(for: big, state: .outside, cushion: .iOS, device: (nearOutside, 10), handed: nil) == plain,
            "the device may lie inside the 325 m circle, where the OS would find it inside")
        let fitted = SlotPlanner.circle(for: big, state: .outside, cushion: .iOS, device: (far, 10), handed: nil)
        #expect(fitted == MonitoredRegion(id: "big", center: home, radius: 325, reportsState: false))
        #expect(
            SlotPlanner.circle(for: big, state: .outside, cushion: .iOS, device: nil, handed: fitted) == fitted,
            "a fitted circle the OS watches stays")
        #expect(
            SlotPlanner.circle(for: big, state: .inside, cushion: .iOS, device: nil, handed: fitted) == plain,
            "a new state needs a new circle, and the position to hand it")
        #expect(
            SlotPlanner.circle(for: big, state: .inside, cushion: .iOS, device: (home, 30), handed: fitted)
                == MonitoredRegion(id: "big", center: home, radius: 275, reportsState: false))

        let small = region("small", home, radius: 50)
        #expect(
            SlotPlanner.circle(for: small, state: .outside, cushion: .iOS, device: (far, 10), handed: nil)
                == MonitoredRegion(id: "small", center: home, radius: 50),
            "the OS treats both circles as 100 m: nothing to gain, and the state answer is kept")
        let square = try Region(
            id: "square",
            polygons: [
                [
                    [
                        home, point(home, metres: 300), point(point(home, metres: 300), metres: 300, bearing: 0),
                        point(home, metres: 300, bearing: 0), home,
                    ]
                ]
            ])
        #expect(SlotPlanner.circle(for: square, state: .outside, cushion: .iOS, device: (far, 10), handed: nil).reportsState)
    }

    @Test(
        "a report proves a crossing exactly when the emulated OS flips the circle the band past the region's boundary",
        arguments: [30.0, 60, 90, 150, 300, 700])
    func provesWhereTheOSFlips(radius: Double) throws {
        let region = region("r", home, radius: radius)
        let band = TransitionRule.hysteresis(radius: radius)
        let circles = [
            MonitoredRegion(id: "r", center: home, radius: radius),
            SlotPlanner.circle(for: region, state: .outside, cushion: .iOS, device: (point(home, metres: 10 * radius), 10), handed: nil),
            SlotPlanner.circle(for: region, state: .inside, cushion: .iOS, device: (home, 10), handed: nil),
        ]
        for circle in circles {
            let enter = try #require(flip(of: circle, from: 3 * max(radius, 100), to: 0, state: .inside))
            let exit = try #require(flip(of: circle, from: 0, to: 3 * max(radius, 100), state: .outside))
            let ios = RegionCushion.iOS
            #expect(ios.proves(.inside, circle: circle.radius, regionRadius: radius) == (enter <= radius - band + 1), "\(circle)")
            #expect(ios.proves(.outside, circle: circle.radius, regionRadius: radius) == (exit >= radius + band - 1), "\(circle)")
        }
        // A plain circle under 100 m flips 50 m from its centre: past the band only in a region of 66.7 m or more.
        #expect(RegionCushion.iOS.proves(.inside, circle: radius, regionRadius: radius) == (radius * 0.75 >= 50))
    }

    @Test(
        "the OS's first state shows the region's state exactly when every position the emulated OS calls so lies on that side",
        arguments: [(40.0, 40.0), (40, 150), (150, 150), (325, 300), (150, 300), (100, 100)])
    func firstStateWhereTheOSFindsIt(circleRadius: Double, regionRadius: Double) throws {
        var inside: [Double] = []
        var outside: [Double] = []
        for distance in stride(from: 0.0, through: 3 * max(circleRadius, 100), by: 1) {
            var os = RegionMonitorEmulation()
            os.monitor(
                [MonitoredRegion(id: "r", center: home, radius: circleRadius)], at: time(0), position: point(home, metres: distance),
                stateDelay: 0)
            let reports = os.step(at: time(0), position: point(home, metres: distance), stateDelay: 0, latency: { 0 })
            let state = try #require(reports.first?.state)
            if state == .inside { inside.append(distance) } else { outside.append(distance) }
        }
        let (ios, r) = (RegionCushion.iOS, regionRadius)
        #expect(ios.showsFirstState(.inside, circle: circleRadius, regionRadius: r) == inside.allSatisfy { $0 <= r })
        #expect(ios.showsFirstState(.outside, circle: circleRadius, regionRadius: r) == outside.allSatisfy { $0 >= r })
    }

    @Test("a fitted circle settles without a report; its crossings are reported")
    func silentSettling() {
        var os = RegionMonitorEmulation()
        let circle = MonitoredRegion(id: "r", center: home, radius: 325, reportsState: false)
        os.monitor([circle], at: time(0), position: point(home, metres: 1_000), stateDelay: 1)
        #expect(os.step(at: time(5), position: point(home, metres: 1_000), stateDelay: 1, latency: { 0 }).isEmpty)
        let crossing = os.step(at: time(10), position: point(home, metres: 270), stateDelay: 1, latency: { 0 })
        #expect(crossing.map(\.state) == [.inside])
    }
}

@Suite("Tracker configuration: the region cushion is saved, and older saves get iOS's")
struct TrackerConfigurationCushionTests {
    @Test func roundTripAndOlderSaves() throws {
        var configuration = TrackerConfiguration(mode: .significant)
        configuration.regionCushion = RegionCushion(minimumRadius: 150, minimumDistance: 80, fraction: 0.2)
        let data = try JSONEncoder().encode(configuration)
        #expect(try JSONDecoder().decode(TrackerConfiguration.self, from: data) == configuration)
        var older = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        older["regionCushion"] = nil
        let decoded = try JSONDecoder().decode(TrackerConfiguration.self, from: try JSONSerialization.data(withJSONObject: older))
        #expect(decoded.regionCushion == .iOS)
        #expect(decoded.slotCount == configuration.slotCount && decoded.mode == configuration.mode)
    }
}
