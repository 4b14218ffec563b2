import Foundation
import Testing
import Whereabouts
import WhereaboutsApple
import WhereaboutsCore

/// The modern path as iOS 17 runs it: the sessions held, the live updates running, and positions handed
/// out when the test says.
@MainActor
final class RecordingLiveUpdates: LiveUpdatesRunning {
    /// Every plan live updates were started for, in order.
    private(set) var started: [LiveUpdatesPlan] = []
    /// Every distance filter set on running updates, in order.
    private(set) var filters: [Double?] = []
    /// The live updates running now, with the filter in force.
    private(set) var running: LiveUpdatesPlan?
    private(set) var stops = 0
    /// The sessions held now.
    private(set) var sessions: LiveSessions?
    private(set) var sessionsCreated = 0
    private(set) var sessionsInvalidated = 0
    private var deliver: (@MainActor (ReportedLocation) -> Void)?

    func holdSessions(_ sessions: LiveSessions) {
        sessionsCreated += 1
        self.sessions = sessions
    }

    func invalidateSessions() {
        sessionsInvalidated += 1
        sessions = nil
    }

    func startUpdates(_ plan: LiveUpdatesPlan, deliver: @escaping @MainActor (ReportedLocation) -> Void) {
        started.append(plan)
        running = plan
        self.deliver = deliver
    }

    func setDistanceFilter(_ metres: Double?) {
        filters.append(metres)
        running = running.map { LiveUpdatesPlan(kind: $0.kind, distanceFilter: metres) }
    }

    func stopUpdates() {
        stops += 1
        running = nil
        deliver = nil
    }

    func deliver(_ location: ReportedLocation) { deliver?(location) }
}

@Suite("The modern path (iOS 17 and later)")
@MainActor
struct LiveUpdatesTests {
    /// A phone app on live updates, launched by the user and tracking in `mode`.
    private static func tracking(_ mode: TrackingMode) async throws -> (RecordingLiveUpdates, PhoneApp) {
        let live = RecordingLiveUpdates()
        let app = PhoneApp(at: home)
        app.liveUpdates = live
        try app.launch()
        try await app.engine.launch(.user)
        try await app.engine.start(mode: mode)
        await app.drainMain()
        return (live, app)
    }

    @Test("fine standard updates run on live updates, coarse ones and the rest on the location manager")
    func whichPathRuns() async throws {
        let (live, app) = try await Self.tracking(.continuous())
        let plan = try #require(live.running)
        #expect(plan.kind == .navigation)
        #expect(live.sessions == LiveSessions(backgroundActivity: true, always: true))
        #expect(!app.primary.updating, "the classic updates are off while live updates run")

        live.deliver(ReportedLocation(latitude: home.latitude, longitude: home.longitude, horizontalAccuracy: 5, timestamp: Date()))
        let engine = try #require(app.engine)
        #expect(await soon { await engine.currentLocation()?.horizontalAccuracy == 5 }, "a live position reaches the engine")

        try await app.engine.start(mode: .significant)
        await app.drainMain()
        #expect(live.running == nil && live.stops == 1, "live updates stop when the request no longer needs them")
        #expect(app.primary.significantChanges)
        #expect(live.sessions != nil && live.sessionsInvalidated == 0, "tracking goes on: the sessions are kept")
        try await app.engine.stop()
        await app.drainMain()
        #expect(live.sessions == nil && live.sessionsCreated == 1 && live.sessionsInvalidated == 1, "stopping tracking ends them")
        await app.kill()
    }

    @Test("a filter change or a raised-accuracy episode keeps the background session")
    func filterChangeKeepsTheSession() async throws {
        let (live, app) = try await Self.tracking(.adaptive(.stopDetect))
        #expect(live.running == LiveUpdatesPlan(kind: .navigation, distanceFilter: 10))
        #expect(live.sessions?.backgroundActivity == true)
        // The elastic filter follows the speed in 5 m/s steps: 2 m/s keeps 10 m, 20 m/s makes it 20 m.
        let engine = try #require(app.engine)
        var position = home
        // A second apart and as far apart as the speed says, so that no fix looks like a jump.
        let start = Date().addingTimeInterval(-10)
        for (second, speed) in [2.0, 2, 20, 20].enumerated() {
            let fixes = await engine.diagnostics.fixes
            position = Geodesy.destination(from: position, distance: speed, bearing: 90)
            live.deliver(
                ReportedLocation(
                    latitude: position.latitude, longitude: position.longitude, horizontalAccuracy: 5, speed: speed,
                    timestamp: start.addingTimeInterval(Double(second + 1))))
            #expect(await soon { await engine.diagnostics.fixes > fixes })
        }
        await app.drainMain()
        #expect(live.running == LiveUpdatesPlan(kind: .navigation, distanceFilter: 20), "the filter followed the speed")
        #expect(live.filters == [20], "the filter changed in place")
        #expect(live.started.count == 1 && live.stops == 0, "CoreLocation's live updates were not restarted")
        #expect(live.sessionsCreated == 1 && live.sessionsInvalidated == 0, "the session created at the start is held")
        await app.kill()
    }

    @Test("near a boundary the classic updates run until the live ones deliver, and the session outlives the episode")
    func raisedAccuracyHandsOver() async throws {
        let live = RecordingLiveUpdates()
        let app = PhoneApp(at: home)
        app.mode = .adaptive(.responsive)
        app.liveUpdates = live
        try app.launch()
        try await app.engine.launch(.user)
        // Within reach, and smaller than responsive's fine radius (60 m): judged on fine fixes.
        try await app.engine.addRegions([
            try Region(id: "shop", center: Geodesy.destination(from: home, distance: 80, bearing: 90), radius: 30)
        ])
        try await app.engine.start(mode: .adaptive(.responsive))
        await app.drainMain()
        #expect(app.primary.updating && app.primary.desiredAccuracy == CoreLocationConstants.accuracyHundredMeters)
        #expect(live.sessionsCreated == 1 && live.running == nil, "moving on the classic path, the session created at the start")

        let engine = try #require(app.engine)
        let fixes = await engine.diagnostics.fixes
        app.os.move(to: home, accuracy: 40)
        #expect(await soon { await engine.diagnostics.fixes > fixes })
        #expect(await soon { live.running?.kind == .navigation }, "the boundary raises accuracy onto live updates")
        #expect(app.primary.updating, "the classic updates go on until the live ones deliver")
        live.deliver(ReportedLocation(latitude: home.latitude, longitude: home.longitude, horizontalAccuracy: 5, timestamp: Date()))
        await app.drainMain()
        #expect(!app.primary.updating, "handed over")

        // The episode ends (a new start of the mode forgets the raised accuracy): back to the manager.
        try await app.engine.start(mode: .adaptive(.responsive))
        await app.drainMain()
        #expect(app.primary.updating && live.running == nil)
        #expect(live.sessionsCreated == 1 && live.sessionsInvalidated == 0, "the session outlived the episode")
        await app.kill()
    }

    @Test("the plan: ten metres or finer only, with the request's distance filter; sessions as the set-up and authorization say")
    func plan() throws {
        func configuration(_ accuracy: LocationAccuracy, filter: Double? = nil) -> CoreLocationConfiguration {
            CoreLocationConfiguration(
                LocationRequest(standard: StandardUpdates(accuracy: accuracy, distanceFilter: filter), significantChange: false),
                backgroundModeDeclared: true)
        }
        let fine = try #require(LiveUpdatesPlan(configuration(.tenMeters, filter: 25)))
        #expect(fine.kind == .standard && fine.distanceFilter == 25)
        #expect(LiveUpdatesPlan(configuration(.best))?.kind == .navigation)
        #expect(LiveUpdatesPlan(configuration(.hundredMeters)) == nil, "coarse requests keep GPS off on the manager")
        #expect(LiveUpdatesPlan(CoreLocationConfiguration(.off, backgroundModeDeclared: true)) == nil)
        let noMode = AppSetup(usageDescriptions: [AppSetup.whenInUseKey], backgroundModes: [], permittedTaskIdentifiers: [])
        let foreground = LiveSessions(setup: noMode, authorization: PlatformAuthorization(status: .whenInUse))
        #expect(!foreground.backgroundActivity && !foreground.always)
        #expect(
            LiveSessions(setup: .complete(), authorization: PlatformAuthorization(status: .always))
                == .init(backgroundActivity: true, always: true))
    }

    @Test("transitions: sessions held from the start of tracking to its end, whichever path; no moment without updates")
    func transitions() {
        let whenInUse = PlatformAuthorization(status: .whenInUse)
        let sessions = LiveSessions(backgroundActivity: true, always: false)
        func configuration(_ accuracy: LocationAccuracy?, filter: Double? = nil, significant: Bool = false) -> CoreLocationConfiguration {
            CoreLocationConfiguration(
                LocationRequest(
                    standard: accuracy.map { StandardUpdates(accuracy: $0, distanceFilter: filter) }, significantChange: significant),
                backgroundModeDeclared: true)
        }
        func step(
            _ from: StandardUpdatesPaths, _ to: CoreLocationConfiguration, regions: Bool = false,
            authorization: PlatformAuthorization = whenInUse, modernPath: Bool = true
        ) -> LiveUpdatesTransition {
            LiveUpdatesTransition(
                from: from, to: to, regions: regions, setup: .complete(), authorization: authorization, modernPath: modernPath)
        }
        let best10 = LiveUpdatesPlan(kind: .navigation, distanceFilter: 10)

        // Tracking starts in the foreground: the sessions first, then the updates.
        let started = step(.none, configuration(.best, filter: 10))
        #expect(started.steps == [.createSessions(sessions), .startLive(best10)])
        // A filter change touches neither CoreLocation nor the sessions.
        let faster = step(started.paths, configuration(.best, filter: 20))
        #expect(faster.steps == [.setLiveFilter(20)])
        #expect(
            faster.paths
                == StandardUpdatesPaths(sessions: sessions, live: LiveUpdatesPlan(kind: .navigation, distanceFilter: 20), classic: false))
        #expect(step(faster.paths, configuration(.best, filter: 20)).steps.isEmpty)
        // A kind change starts the new iteration; the old one ends when the new one delivers.
        let tenMetres = step(faster.paths, configuration(.tenMeters))
        #expect(tenMetres.steps == [.startLive(LiveUpdatesPlan(kind: .standard, distanceFilter: nil))])

        // Coarse to fine near a boundary: the classic updates run until the first live position.
        let coarse = step(.none, configuration(.hundredMeters, filter: 20))
        #expect(coarse.steps == [.createSessions(sessions), .startClassic])
        let raised = step(coarse.paths, configuration(.best))
        #expect(raised.steps == [.startLive(LiveUpdatesPlan(kind: .navigation, distanceFilter: nil))])
        #expect(raised.paths.handingOver)
        let handedOver = LiveUpdatesTransition.firstLivePosition(in: raised.paths)
        #expect(handedOver.steps == [.stopClassic] && !handedOver.paths.classic)
        #expect(LiveUpdatesTransition.firstLivePosition(in: handedOver.paths).steps.isEmpty)
        // Fine back to coarse: the classic updates start before the live ones stop.
        let lowered = step(handedOver.paths, configuration(.hundredMeters, filter: 20))
        #expect(lowered.steps == [.startClassic, .stopLive])
        // Back to coarse before the hand-over: the classic updates just go on.
        #expect(step(raised.paths, configuration(.hundredMeters, filter: 20)).steps == [.stopLive])

        // A stop: significant changes only, then nothing but the stopped device's geofence; the sessions
        // are held for the departure. Stopping tracking (nothing asked, no regions) ends them.
        let still = step(started.paths, configuration(nil, significant: true))
        #expect(still.steps == [.stopLive] && still.paths.sessions == sessions)
        let fenced = step(still.paths, configuration(nil), regions: true)
        #expect(fenced.steps.isEmpty && fenced.paths.sessions == sessions)
        let departed = step(fenced.paths, configuration(.best, filter: 10), regions: true)
        #expect(departed.steps == [.startLive(best10)], "the departure's updates start under the held sessions")
        let stopped = step(departed.paths, configuration(nil))
        #expect(stopped.steps == [.stopLive, .invalidateSessions] && stopped.paths == .none)

        // No sessions before the app may use location; they come with the authorization.
        let waiting = step(.none, configuration(.best), authorization: PlatformAuthorization(status: .notDetermined))
        #expect(waiting.steps == [.startLive(LiveUpdatesPlan(kind: .navigation, distanceFilter: nil))])
        #expect(step(waiting.paths, configuration(.best)).steps == [.createSessions(sessions)])
        // iOS 15 and 16: the classic updates, no sessions.
        let classic = step(.none, configuration(.best), modernPath: false)
        #expect(classic.steps == [.startClassic] && classic.paths == StandardUpdatesPaths(sessions: nil, live: nil, classic: true))
        #expect(step(classic.paths, configuration(nil), modernPath: false).steps == [.stopClassic])
    }
}
