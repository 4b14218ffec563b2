import Foundation
import Testing
import Whereabouts
import WhereaboutsApple
import WhereaboutsCore

/// The modern path as iOS 17 runs it: the plan in force, and positions handed out when the test says.
@MainActor
final class RecordingLiveUpdates: LiveUpdatesRunning {
    private(set) var plans: [LiveUpdatesPlan?] = []
    private var deliver: (@MainActor (ReportedLocation) -> Void)?

    func run(_ plan: LiveUpdatesPlan?, deliver: @escaping @MainActor (ReportedLocation) -> Void) {
        plans.append(plan)
        self.deliver = plan == nil ? nil : deliver
    }

    func deliver(_ location: ReportedLocation) { deliver?(location) }
}

@Suite("The modern path (iOS 17 and later)")
@MainActor
struct LiveUpdatesTests {
    @Test("fine standard updates run on live updates, coarse ones and the rest on the location manager")
    func whichPathRuns() async throws {
        let live = RecordingLiveUpdates()
        let app = PhoneApp(at: home)
        app.liveUpdates = live
        try app.launch()
        try await app.engine.launch(.user)
        try await app.engine.start(mode: .continuous())
        await app.drainMain()
        let plan = try #require(live.plans.last ?? nil)
        #expect(plan.kind == .navigation && plan.backgroundActivity && plan.always)
        #expect(!app.primary.updating, "the classic updates are off while live updates run")

        live.deliver(ReportedLocation(latitude: home.latitude, longitude: home.longitude, horizontalAccuracy: 5, timestamp: Date()))
        let engine = try #require(app.engine)
        #expect(await soon { await engine.currentLocation()?.horizontalAccuracy == 5 }, "a live position reaches the engine")

        try await app.engine.start(mode: .significant)
        await app.drainMain()
        #expect(live.plans.last == .some(nil), "live updates stop when the request no longer needs them")
        #expect(app.primary.significantChanges)
        await app.kill()
    }

    @Test("the plan: ten metres or finer only; the distance filter and background session as the request and set-up say")
    func plan() throws {
        let always = PlatformAuthorization(status: .always)
        func configuration(_ accuracy: LocationAccuracy, filter: Double? = nil) -> CoreLocationConfiguration {
            CoreLocationConfiguration(
                LocationRequest(standard: StandardUpdates(accuracy: accuracy, distanceFilter: filter), significantChange: false),
                backgroundModeDeclared: true)
        }
        let fine = try #require(LiveUpdatesPlan(configuration(.tenMeters, filter: 25), setup: .complete(), authorization: always))
        #expect(fine.kind == .standard && fine.distanceFilter == 25)
        #expect(
            LiveUpdatesPlan(configuration(.hundredMeters), setup: .complete(), authorization: always) == nil,
            "coarse requests keep GPS off on the manager")
        #expect(
            LiveUpdatesPlan(CoreLocationConfiguration(.off, backgroundModeDeclared: true), setup: .complete(), authorization: always) == nil
        )
        let noMode = AppSetup(usageDescriptions: [AppSetup.whenInUseKey], backgroundModes: [], permittedTaskIdentifiers: [])
        let foreground = try #require(
            LiveUpdatesPlan(configuration(.best), setup: noMode, authorization: PlatformAuthorization(status: .whenInUse)))
        #expect(!foreground.backgroundActivity && !foreground.always)
    }
}
