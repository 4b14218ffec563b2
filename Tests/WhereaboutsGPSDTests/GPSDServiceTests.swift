import Foundation
import Testing
import Whereabouts
import WhereaboutsCore
import WhereaboutsGPSD
import WhereaboutsTestSupport

private let everyFix = LocationRequest(standard: StandardUpdates(accuracy: .best, distanceFilter: nil), significantChange: false)

@Suite("GPSDLocationService without a gpsd to talk to")
struct GPSDServiceWithoutGPSDTests {
    @Test("a missing gpsd is reported once, naming it, while the service keeps retrying")
    func missingGPSD() async throws {
        let port = try freePort()
        try await withGPSDService(port: port, backoff: GPSDBackoff(initial: 0.02, maximum: 0.1)) { service, recorder in
            #expect(service.authorization() == .unrestricted)
            service.configure(everyFix)
            #expect(await eventually(within: 30) { service.statistics.connectionFailures >= 5 })
            #expect(await eventually(within: 30) { recorder.failureCount >= 1 }, "the recorder takes the first failure from the stream")
            #expect(recorder.events.first == .authorizationChanged(.unrestricted))
            let failures = recorder.failures
            #expect(failures.count == 1, "a repeated refusal is logged, not reported again: \(failures)")
            let failure = try #require(failures.first)
            #expect(failure.source == "gpsd at 127.0.0.1:\(port)")
            #expect(failure.problem.contains("cannot connect"))
            #expect(failure.fix.hasPrefix("reconnecting in 0.02 s, then at intervals growing to 0.1 s"))
            #expect(failure.description.hasPrefix("gpsd at 127.0.0.1:\(port): cannot connect"))
            #expect(!service.isWatching)
            #expect(recorder.fixes.isEmpty)
        }
    }

    @Test("nothing is attempted while nothing asks for positions")
    func idle() async throws {
        let port = try freePort()
        try await withGPSDService(port: port, backoff: GPSDBackoff(initial: 0.02, maximum: 0.1)) { service, recorder in
            service.configure(.off)
            service.monitor([])
            service.requestAuthorization(.background)
            service.openSettings()
            try await Task.sleep(nanoseconds: 300_000_000)
            #expect(service.statistics.connectionFailures == 0)
            #expect(recorder.failures.isEmpty)
        }
    }

    @Test("shutdown finishes the event stream and later calls do nothing")
    func shutdownFinishes() async throws {
        let service = GPSDLocationService(host: "127.0.0.1", port: try freePort(), backoff: GPSDBackoff(initial: 0.02, maximum: 0.1))
        service.configure(everyFix)
        await service.shutdown()
        var events: [LocationServiceEvent] = []
        for await event in service.events { events.append(event) }
        #expect(events.first == .authorizationChanged(.unrestricted))
        await service.shutdown()
        service.configure(everyFix)
        service.requestOneShot(.best)
        #expect(!service.isWatching)
    }

    @Test("a host name that does not resolve is reported with the resolver's reason")
    func unresolvableHost() async throws {
        let service = GPSDLocationService(host: "no-such-host.invalid", port: 2947, backoff: GPSDBackoff(initial: 0.02, maximum: 0.1))
        let recorder = EventRecorder(service)
        service.configure(everyFix)
        #expect(await eventually(within: 30) { !recorder.failures.isEmpty })
        await service.shutdown()
        let failure = try #require(recorder.failures.first)
        #expect(failure.source == "gpsd at no-such-host.invalid:2947")
        #expect(failure.problem.hasPrefix("cannot resolve the host name"))
    }
}

@Suite(
    "GPSDLocationService with a live gpsd: restarts, updates off, one-shot, regions",
    .enabled(
        if: GPSDTestEnvironment.toolsInstalled,
        "gpsfake, gpspipe or gpsd is not installed (apt-get install gpsd gpsd-clients): tests against a real gpsd are skipped"),
    .enabled(if: GPSDTestEnvironment.logsPresent, "../shared is absent: tests replaying gpsd's recordings are skipped"))
struct GPSDLiveServiceTests {
    /// A SiRF II receiver recorded near Brisbane, fed in a loop, 5 ms between lines.
    static let log = GPSDTestEnvironment.gpsdLogs.appendingPathComponent("haicom-305N.log")
    /// Where that recording was made.
    static let place = Coordinate(normalizingLatitude: -27.2109, longitude: 153.0522)

    @Test("when gpsd dies mid-run the service reports it once, reconnects to the new gpsd and delivers again")
    func gpsdRestarts() async throws {
        let port = try freePort()
        var fake = try await GPSFake.started(log: Self.log, port: port, feed: .looping(cycle: 0.005))
        defer { fake.stop() }
        try await withGPSDService(port: port, backoff: GPSDBackoff(initial: 0.05, maximum: 0.2)) { service, recorder in
            service.configure(everyFix)
            #expect(
                await eventually(within: 60) { recorder.fixCount >= 5 },
                "no fixes from gpsd (\(service.statistics)); gpsfake said: \(fake.errorOutput)")
            // The recorder may lag behind the stream, but while gpsd feeds fixes nothing else is
            // yielded: the refusals from before gpsd listened precede the fixes, so they are recorded.
            let eventsBefore = recorder.events.count
            let failuresBefore = recorder.failureCount
            let attemptsBefore = service.statistics.connectionFailures

            fake.stop()
            #expect(await eventually(within: 30) { recorder.failureCount >= failuresBefore + 2 && !service.isWatching })
            #expect(await eventually(within: 30) { service.statistics.connectionFailures >= attemptsBefore + 4 })
            #expect(await recorder.caughtUp(with: service))
            let fixesWhileDown = recorder.fixCount
            #expect(fixesWhileDown == service.statistics.delivered)

            fake = try await GPSFake.started(log: Self.log, port: port, feed: .looping(cycle: 0.005))
            #expect(
                await eventually(within: 60) { recorder.fixCount >= fixesWhileDown + 5 },
                "no fixes after the restart (\(service.statistics)); gpsfake said: \(fake.errorOutput)")

            // Events arrive in order: the old gpsd's last fixes, the failures, the new gpsd's fixes.
            #expect(await recorder.caughtUp(with: service))
            let after = Array(recorder.events.dropFirst(eventsBefore))
            let isFailure: (LocationServiceEvent) -> Bool = { if case .failure = $0 { true } else { false } }
            let isFix: (LocationServiceEvent) -> Bool = { if case .fix = $0 { true } else { false } }
            let failures = after.compactMap { if case .failure(let failure) = $0 { failure } else { nil } }
            let firstFailure = try #require(after.firstIndex(where: isFailure))
            let lastFailure = try #require(after.lastIndex(where: isFailure))
            let back = try #require(after[firstFailure...].firstIndex(where: isFix), "fixes follow the failures")
            #expect(failures.first?.problem == "closed the connection" || failures.first?.problem.hasPrefix("connection lost") == true)
            #expect(failures.allSatisfy { $0.source == "gpsd at 127.0.0.1:\(port)" && $0.fix.hasPrefix("reconnecting in") })
            #expect(
                zip(failures, failures.dropFirst()).allSatisfy { $0.problem != $1.problem }, "each problem is reported once: \(failures)")
            #expect(lastFailure < back, "no failure once gpsd is back: \(failures)")
            #expect(service.statistics.connections >= 2)
            #expect(service.isWatching)
        }
    }

    @Test("updates off stop watching, a one-shot delivers one fix, regions report states, the filter holds fixes back")
    func configurations() async throws {
        let port = try freePort()
        let fake = try await GPSFake.started(log: Self.log, port: port, feed: .looping(cycle: 0.005))
        defer { fake.stop() }
        try await withGPSDService(port: port) { service, recorder in
            service.configure(everyFix)
            #expect(
                await eventually(within: 60) { recorder.fixCount >= 3 },
                "no fixes from gpsd (\(service.statistics)); gpsfake said: \(fake.errorOutput)")

            // Once the watch has ended the service yields nothing more; the recorder may still be
            // taking earlier fixes from the stream, so the counts are read when it has caught up.
            service.configure(.off)
            #expect(await eventually(within: 30) { !service.isWatching })
            let whileOff = service.statistics.delivered
            #expect(await recorder.caughtUp(with: service))
            #expect(recorder.fixCount == whileOff)
            service.requestOneShot(.best)
            #expect(await eventually(within: 60) { recorder.fixCount > whileOff })
            #expect(await eventually(within: 30) { !service.isWatching }, "the one-shot is done, nothing else wants gpsd")
            try await Task.sleep(nanoseconds: 500_000_000)
            #expect(!service.isWatching)
            #expect(await recorder.caughtUp(with: service))
            #expect(service.statistics.delivered == whileOff + 1, "\(service.statistics)")
            #expect(recorder.fixCount == whileOff + 1)

            let around = MonitoredRegion(id: "around", center: Self.place, radius: 5000)
            let away = MonitoredRegion(id: "away", center: Geodesy.destination(from: Self.place, distance: 3000, bearing: 90), radius: 100)
            service.monitor([around, away])
            let states = await eventually(within: 60) {
                let events = recorder.events
                return events.contains(.regionCrossing(id: "around", state: .inside))
                    && events.contains(.regionCrossing(id: "away", state: .outside))
            }
            #expect(states, "region states from live fixes: \(recorder.events.suffix(5))")
            #expect(service.isWatching, "monitored regions keep gpsd watched")
            #expect(await recorder.caughtUp(with: service))
            #expect(service.statistics.delivered == whileOff + 1, "regions alone deliver no fixes: \(service.statistics)")
            #expect(recorder.fixCount == whileOff + 1, "regions alone deliver no fixes")
            service.monitor([])
            #expect(await eventually(within: 30) { !service.isWatching })

            #expect(await recorder.caughtUp(with: service))
            let beforeFilter = recorder.fixCount
            let withheld = service.statistics.withheld
            service.configure(
                LocationRequest(standard: StandardUpdates(accuracy: .best, distanceFilter: 1_000_000), significantChange: false))
            #expect(await eventually(within: 60) { service.statistics.withheld >= withheld + 5 })
            #expect(await recorder.caughtUp(with: service))
            #expect(recorder.fixCount == beforeFilter + 1, "only the first fix passes a 1000 km filter")
        }
    }
}
