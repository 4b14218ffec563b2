import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsDelivery

@testable import WhereaboutsSimulator

/// A transport that answers every request 200 without sending it anywhere: the test only needs the
/// metered wrapper's timeline record.
private struct AcceptingTransport: HTTPTransport {
    func send(_ request: OutgoingRequest, timeout: TimeInterval) async throws -> HTTPReply { HTTPReply(status: 200) }
}

@Suite("Simulated phone")
struct SimulatedPhoneTests {
    typealias S = SimFixtures

    @Test("the timeline is the same whichever of the engine and the uploader recorded first in a second")
    func uploadsLastInTheirSecond() async throws {
        // The uploader records its request before the engine turns motion sensing on, in one second.
        let phone = SimulatedPhone(truth: S.path(still: 100, speed: 1, moving: 100), seed: 1)
        let transport = phone.meteredTransport(AcceptingTransport())
        let request = OutgoingRequest(method: "POST", url: URL(string: "http://127.0.0.1/batch")!, headers: [:], body: Data(count: 80))
        _ = try await transport.send(request, timeout: 5)
        phone.configure(LocationRequest(standard: nil, significantChange: false, motionActivity: true))
        let second = try #require(phone.timeline.first?.t)
        #expect(phone.timeline == [.motion(t: second, on: true), .upload(t: second, bytes: 80)])

        let engineFirst: [TimelineRecord] = [
            .app(t: 10, state: .running), .motion(t: 10, on: true), .upload(t: 10, bytes: 80), .upload(t: 10, bytes: 18),
            .wifiScan(t: 11),
        ]
        let uploaderFirst: [TimelineRecord] = [
            .app(t: 10, state: .running), .upload(t: 10, bytes: 80), .upload(t: 10, bytes: 18), .motion(t: 10, on: true),
            .wifiScan(t: 11),
        ]
        #expect(TimelineRecord.uploadsLast(uploaderFirst) == engineFirst)
        #expect(TimelineRecord.uploadsLast(engineFirst) == engineFirst)
        let meter = { (records: [TimelineRecord]) in EnergyMeter(timeline: records, start: 0, end: 20).total }
        #expect(meter(uploaderFirst) == meter(engineFirst))
    }

    @Test("GPS acquires for 15 s cold, 3 s warm, then delivers at 1 Hz")
    func acquisition() {
        let truth = S.path(moving: 400)
        var service = SimulatedLocationService()
        let gps = LocationRequest(standard: StandardUpdates(accuracy: .best, distanceFilter: nil), significantChange: false)
        service.configure(gps, at: S.start)
        let cold = S.run(&service, over: truth, seconds: 60)
        #expect(cold.fixes.first?.timestamp == Date(timeIntervalSince1970: S.start + 15))
        #expect(cold.fixes.count == 45)
        #expect(cold.fixes.allSatisfy { $0.source == .gps && (5...15).contains($0.horizontalAccuracy) })
        service.configure(.off, at: S.start + 60)
        _ = S.run(&service, over: truth, from: S.start + 60, seconds: 60)
        service.configure(gps, at: S.start + 120)
        let warm = S.run(&service, over: truth, from: S.start + 120, seconds: 20)
        #expect(warm.fixes.first?.timestamp == Date(timeIntervalSince1970: S.start + 123))
        #expect(warm.timeline.contains(.gps(t: S.start + 120, state: .acquiring)))
    }

    @Test("Wi-Fi scans every 10 s moving and every 60 s still")
    func wifiCadence() {
        var service = SimulatedLocationService()
        service.configure(
            LocationRequest(standard: StandardUpdates(accuracy: .hundredMeters, distanceFilter: nil), significantChange: false), at: S.start
        )
        let moving = S.run(&service, over: S.path(moving: 400), seconds: 100)
        #expect(moving.fixes.count == 10)
        #expect(moving.timeline.filter { $0 == .wifiScan(t: $0.t) }.count == 10)
        var still = SimulatedLocationService()
        still.configure(
            LocationRequest(standard: StandardUpdates(accuracy: .hundredMeters, distanceFilter: nil), significantChange: false), at: S.start
        )
        #expect(S.run(&still, over: S.path(still: 400, moving: 1), seconds: 300).fixes.count == 5)
    }

    @Test("a device that sets off 5 s after a still scan is scanned 10 s after it, not 60: the cadence follows the device each second")
    func wifiCadenceAfterSettingOff() {
        var service = SimulatedLocationService()
        service.configure(
            LocationRequest(standard: StandardUpdates(accuracy: .hundredMeters, distanceFilter: nil), significantChange: false), at: S.start
        )
        let run = S.run(&service, over: S.path(still: 5, moving: 100), seconds: 40)
        #expect(run.timeline.map { $0.t - S.start } == [0, 10, 20, 30], "a still scan at 0, then every 10 s once moving")
    }

    @Test("a restart delivers the OS's location under 10 s old, at no cost, and Wi-Fi keeps its schedule from the previous scan")
    func restartDeliversTheCachedLocation() {
        let wifi = LocationRequest(standard: StandardUpdates(accuracy: .hundredMeters, distanceFilter: nil), significantChange: false)
        let truth = S.path(moving: 400)
        var service = SimulatedLocationService()
        service.configure(wifi, at: S.start)
        let first = S.run(&service, over: truth, seconds: 4)
        #expect(first.timeline == [.wifiScan(t: S.start)])
        service.configure(.off, at: S.start + 4)
        service.configure(wifi, at: S.start + 6)
        let restarted = S.run(&service, over: truth, from: S.start + 6, seconds: 10)
        #expect(restarted.fixes.first == first.fixes.first, "the cached location, with its own time, accuracy and source")
        #expect(restarted.timeline == [.wifiScan(t: S.start + 10)], "no scan for the cached one; the next one 10 s after the last")

        var late = SimulatedLocationService()
        late.configure(wifi, at: S.start)
        _ = S.run(&late, over: truth, seconds: 1)
        late.configure(.off, at: S.start + 1)
        late.configure(wifi, at: S.start + 30)
        let stale = S.run(&late, over: truth, from: S.start + 30, seconds: 2)
        #expect(stale.fixes.map(\.timestamp) == [Date(timeIntervalSince1970: S.start + 30)], "over 10 s old: a new scan at once")

        var handBack = SimulatedLocationService()
        handBack.configure(
            LocationRequest(standard: StandardUpdates(accuracy: .best, distanceFilter: nil), significantChange: false), at: S.start)
        let gps = S.run(&handBack, over: truth, seconds: 20).fixes
        handBack.configure(wifi, at: S.start + 20)
        let back = S.run(&handBack, over: truth, from: S.start + 20, seconds: 1)
        #expect(back.fixes == [gps.last!] && back.timeline.filter { $0 == .wifiScan(t: $0.t) }.isEmpty, "GPS handing back to Wi-Fi")
    }

    @Test("the distance filter holds back fixes closer than it")
    func distanceFilter() {
        var service = SimulatedLocationService()
        service.configure(
            LocationRequest(standard: StandardUpdates(accuracy: .best, distanceFilter: 100), significantChange: false), at: S.start)
        let fixes = S.run(&service, over: S.path(speed: 5, moving: 400), seconds: 215).fixes
        #expect(fixes.count >= 9 && fixes.count <= 11)
        for (a, b) in zip(fixes, fixes.dropFirst()) { #expect(Geodesy.distance(a.coordinate, b.coordinate) >= 100) }
    }

    @Test("a one-shot delivers one fix and turns GPS off")
    func oneShot() {
        var service = SimulatedLocationService()
        service.requestOneShot(.best, at: S.start)
        let run = S.run(&service, over: S.path(moving: 100), seconds: 60)
        #expect(run.oneShots.count == 1 && run.fixes.isEmpty)
        #expect(run.timeline.map(\.t) == [S.start, S.start + 15, S.start + 16])
        var wifi = SimulatedLocationService()
        wifi.requestOneShot(.hundredMeters, at: S.start)
        let w = S.run(&wifi, over: S.path(moving: 100), seconds: 10)
        #expect(w.oneShots.map(\.source) == [.wifi] && w.timeline == [.wifiScan(t: S.start + 2)])
    }

    @Test("significant change: a first fix, then at least 500 m and 300 s apart")
    func significantChange() {
        var service = SimulatedLocationService()
        service.configure(LocationRequest(standard: nil, significantChange: true), at: S.start)
        let fast = S.run(&service, over: S.path(speed: 20, moving: 2000), seconds: 2000).significant
        #expect(fast.count == 7)
        for (a, b) in zip(fast, fast.dropFirst()) { #expect(b.timestamp.timeIntervalSince(a.timestamp) >= 300) }
        var slow = SimulatedLocationService()
        slow.configure(LocationRequest(standard: nil, significantChange: true), at: S.start)
        let walking = S.run(&slow, over: S.path(speed: 1, moving: 2000), seconds: 2000).significant
        #expect(walking.count == 4)
    }

    /// Bug: each start of significant-change monitoring observed a fresh position, so a strategy
    /// turning it off and on during a wake polled for 0.05 J a time, and every stop of the adaptive
    /// presets got a fresh fix free; "the last one" of the 500 m / 5 min rule was forgotten too.
    @Test("starting significant change delivers the OS's most recent location as it was, at no cost; off and on observes nothing new")
    func significantChangeStartsWithTheCachedLocation() {
        let truth = S.path(still: 200, speed: 1, moving: 2000)
        var service = SimulatedLocationService()
        service.configure(
            LocationRequest(standard: StandardUpdates(accuracy: .hundredMeters, distanceFilter: nil), significantChange: false), at: S.start
        )
        let wifi = S.run(&service, over: truth, seconds: 30).fixes
        let last = wifi.last!
        service.configure(LocationRequest(standard: nil, significantChange: true), at: S.start + 30)
        let started = S.run(&service, over: truth, from: S.start + 30, seconds: 60)
        #expect(started.significant == [last], "the last Wi-Fi fix, with its own time, accuracy and source")
        #expect(!started.timeline.contains { if case .cellFix = $0 { true } else { false } }, "no observation")
        // Off and on again, 100 s after the last fix: the same location, nothing new.
        service.configure(.off, at: S.start + 90)
        service.configure(LocationRequest(standard: nil, significantChange: true), at: S.start + 100)
        let again = S.run(&service, over: truth, from: S.start + 100, seconds: 200)
        #expect(again.significant == [last])
        #expect(again.timeline.isEmpty)
        // Then events 500 m from it (about 700 s in, walking at 1 m/s from 200 s; the Wi-Fi fix is
        // noisy) and from each other.
        let later = S.run(&service, over: truth, from: S.start + 300, seconds: 1000).significant
        let times = later.map { $0.timestamp.timeIntervalSince1970 - S.start }
        #expect(times.count == 2 && times[0] > 650 && times[1] - times[0] >= 500, "\(times)")
        #expect(later.allSatisfy { $0.source == .significantChange })
    }

    @Test("region crossings come 20–180 s after passing the boundary by max(r/10, 50 m); small radii act as 100 m")
    func regionLatency() throws {
        let truth = S.path(speed: 10, moving: 2000)
        for (seed, radius) in [(UInt64(1), 300.0), (2, 40), (3, 300), (4, 1000)] {
            var monitor = RegionMonitorEmulation()
            var random = SeededGenerator(seed: seed)
            let center = Geodesy.destination(from: S.home, distance: 5000, bearing: 90)
            let start = Date(timeIntervalSince1970: S.start)
            monitor.monitor(
                [MonitoredRegion(id: "r", center: center, radius: radius)], at: start, position: truth.position(at: S.start), stateDelay: 1)
            var deliveries: [(time: Double, state: RegionState)] = []
            for t in 0..<2000 {
                let at = S.start + Double(t)
                let crossings = monitor.step(
                    at: Date(timeIntervalSince1970: at), position: truth.position(at: at), stateDelay: 1,
                    latency: { random.uniform(20...180).rounded() })
                for crossing in crossings where crossing.id == "r" { deliveries.append((Double(t), crossing.state)) }
            }
            let effective = max(radius, 100)
            let margin = max(effective / 10, 50)
            #expect(deliveries.count == 3)
            #expect(deliveries.first?.time == 1 && deliveries.first?.state == .outside)
            let enterCrossing = (5000 - effective + margin) / 10
            let exitCrossing = (5000 + effective + margin) / 10
            #expect(deliveries[1].state == .inside)
            #expect(deliveries[1].time - enterCrossing >= 19 && deliveries[1].time - enterCrossing <= 181)
            #expect(deliveries[2].time - exitCrossing >= 19 && deliveries[2].time - exitCrossing <= 181)
        }
    }

    @Test("more than 20 regions overflow the OS")
    func overflow() {
        var monitor = RegionMonitorEmulation()
        let regions = (0..<25).map { MonitoredRegion(id: "r\($0)", center: S.home, radius: 100) }
        monitor.monitor(regions, at: Date(timeIntervalSince1970: S.start), position: S.home, stateDelay: 1)
        #expect(monitor.overflows == 1)
    }
}
