import Foundation
import Testing
import WhereaboutsCore

/// The heart of the engine on its own: each test hands the pure ``Session`` inputs with their times
/// and reads the effects it returns, as the engine would perform them.
@Suite("Session: the app's calls, permissions, regions, server commands and the upload retry")
struct SessionTests {
    private static let allowed = PlatformAuthorization(status: .always)
    private static let denied = PlatformAuthorization(status: .denied)

    private static func launched(_ saved: SavedSession = .empty, authorization: PlatformAuthorization = allowed) -> Session {
        var session = Session(restoring: saved, defaults: TrackerConfiguration(mode: .adaptive()))
        _ = session.handle(.launch(.user, authorization), now: time(0))
        return session
    }

    private static func stores(_ effects: [SessionEffect]) -> [SessionWrite] {
        effects.compactMap { if case .store(let write) = $0 { write } else { nil } }
    }

    private static func report(stoppedBy stop: FlushStop?, commands: [DeviceCommand] = [], acknowledged: [String] = []) -> FlushReport {
        var report = FlushReport(trigger: .threshold)
        report.stoppedBy = stop
        report.commands = commands
        report.acknowledged = acknowledged
        return report
    }

    private static func refusal(_ effects: [SessionEffect]) -> Refusal.Code? {
        effects.lazy.compactMap { if case .refuse(let refusal) = $0 { refusal.code } else { nil } }.first
    }

    @Test("start remembers the mode and that tracking is on, and starts the location service")
    func start() {
        var session = Self.launched()
        let effects = session.handle(.start(.continuous(), Self.allowed), now: time(1))
        #expect(Self.refusal(effects) == nil)
        #expect(Self.stores(effects).contains(.trackingEnabled(true)))
        #expect(Self.stores(effects).contains { if case .configuration(let c) = $0 { c.mode == .continuous() } else { false } })
        #expect(effects.contains { if case .track(.configureLocation) = $0 { true } else { false } })
        #expect(session.isTracking)
    }

    @Test("start is refused, with nothing stored, when only Settings can allow location")
    func startRefused() {
        var session = Self.launched(authorization: Self.denied)
        let effects = session.handle(.start(nil, Self.denied), now: time(1))
        #expect(Self.refusal(effects) == .permissionDenied)
        #expect(!Self.stores(effects).contains(.trackingEnabled(true)))
        #expect(!session.isTracking)
    }

    @Test(
        "efficient leaves a large region to the OS only while the OS reports crossings: Always at full accuracy",
        arguments: [
            (PlatformAuthorization(status: .always), true), (PlatformAuthorization(status: .whenInUse), false),
            (PlatformAuthorization(status: .always, reducedAccuracy: true), false),
        ])
    func osTrustNeedsMonitoring(authorization: PlatformAuthorization, trusts: Bool) {
        typealias F = TestFixtures
        var session = Self.launched(authorization: authorization)
        _ = session.handle(
            .addRegions([F.region("near", at: F.point(250), radius: 200), F.region("far", at: F.point(2000), radius: 100)]), now: F.date(0))
        _ = session.handle(.start(.adaptive(.efficient), authorization), now: F.date(0))
        _ = session.handle(.activity(MotionActivity(kind: .walking, confidence: .high, start: F.date(0))), now: F.date(1))
        // The first fix plans the slots; the second, 50 m from the large region's boundary at 40 m
        // accuracy, cruises past it only when the OS will report its crossing.
        _ = session.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        _ = session.handle(.fix(F.fix(east: 0, accuracy: 40, at: 3)), now: F.date(3))
        #expect(session.tracker.osMonitorsRegions == trusts)
        #expect((session.tracker.timers[.clearance] != nil) == trusts, "\(authorization)")
    }

    @Test(
        "a cruise efficient sleeps through on the OS's monitoring wakes on Wi-Fi once the OS cannot monitor a region, or no longer reports crossings",
        arguments: [SessionInput.regionMonitoringFailed(id: "near"), .authorizationChanged(PlatformAuthorization(status: .whenInUse))])
    func suspendedCruiseWakes(news: SessionInput) {
        typealias F = TestFixtures
        var session = Self.launched()
        _ = session.handle(.addRegions([F.region("near", at: F.point(250), radius: 200)]), now: F.date(0))
        _ = session.handle(.start(.adaptive(.efficient), Self.allowed), now: F.date(0))
        _ = session.handle(.activity(MotionActivity(kind: .walking, confidence: .high, start: F.date(0))), now: F.date(1))
        var effects = session.handle(.fix(F.fix(east: 0, accuracy: 40, at: 2)), now: F.date(2))
        effects += session.handle(.fix(F.fix(east: 0, accuracy: 40, at: 3)), now: F.date(3))
        #expect(Self.locationRequests(effects).last?.significantChange == true)
        #expect(Self.locationRequests(effects).last?.standard == nil, "asleep")
        let woken = session.handle(news, now: F.date(4))
        #expect(Self.locationRequests(woken).last?.standard?.accuracy == .hundredMeters, "\(news)")
        #expect(session.tracker.timers[.clearance] == nil)
    }

    private static func locationRequests(_ effects: [SessionEffect]) -> [LocationRequest] {
        effects.compactMap { if case .track(.configureLocation(let request)) = $0 { request } else { nil } }
    }

    @Test(
        "location allowed while tracking re-arms the tracker, whether the OS's change or an app call reading the new authorization comes first"
    )
    func allowedReArmsWhicheverComesFirst() {
        for first in [SessionInput.checkPermissions(Self.allowed), .authorizationChanged(Self.allowed)] {
            var session = Self.launched()
            _ = session.handle(.start(.continuous(), Self.allowed), now: time(1))
            _ = session.handle(.authorizationChanged(Self.denied), now: time(2))
            let reArm = session.handle(first, now: time(3))
            #expect(reArm.contains { if case .track(.configureLocation) = $0 { true } else { false } }, "\(first)")
            let later = session.handle(.authorizationChanged(Self.allowed), now: time(4))
            #expect(!later.contains { if case .track(.configureLocation) = $0 { true } else { false } }, "once")
        }
    }

    @Test("stop remembers that tracking is off")
    func stop() {
        var session = Self.launched()
        _ = session.handle(.start(nil, Self.allowed), now: time(1))
        let effects = session.handle(.stop, now: time(2))
        #expect(Self.stores(effects).first == .trackingEnabled(false))
        #expect(!session.isTracking)
    }

    @Test("a launch with tracking saved on restarts it; one with tracking off starts nothing")
    func launchRestores() {
        let on = Self.launched(SavedSession(trackingEnabled: true))
        #expect(on.isTracking)
        let off = Self.launched(SavedSession(trackingEnabled: false))
        #expect(!off.isTracking)
    }

    /// Bug: a relaunch with tracking off still restored the last record's open stay, so starting
    /// again at the same place wrote a dwell over the time tracking was off.
    @Test("a relaunch with tracking off restores no stay: the next start at the same place records anew")
    func stoppedRelaunchRestoresNoStay() {
        let home = coord(48, 11)
        let record = LocationRecord(id: UUID(), fix: fix(home, acc: 10, t: 0), trigger: .policy, dwell: 60)
        var session = Self.launched(SavedSession(trackingEnabled: false, lastRecord: record))
        var effects = session.handle(.start(nil, Self.allowed), now: time(86_400))
        effects += session.handle(.fix(fix(home, acc: 10, t: 86_401)), now: time(86_401))
        effects += session.handle(.stop, now: time(86_500))
        let dwells = effects.compactMap { effect -> TimeInterval? in
            guard case .track(.extendDwell(let dwell, _)) = effect else { return nil }
            return dwell
        }
        #expect(dwells.allSatisfy { $0 < 200 }, "a dwell spans the time tracking was off: \(dwells)")
    }

    @Test("regions with a repeated id are refused and nothing changes")
    func duplicateRegions() {
        var session = Self.launched()
        let effects = session.handle(
            .setRegions([region("a", coord(48, 11), radius: 100), region("a", coord(49, 11), radius: 100)]), now: time(1))
        #expect(Self.refusal(effects) == .duplicateRegion)
        #expect(Self.stores(effects).isEmpty)
        #expect(session.tracker.geofences.index.regions.isEmpty)
    }

    @Test("set regions removes the missing ones and adds only the new or changed ones")
    func setRegions() {
        var session = Self.launched()
        let a = region("a", coord(48, 11), radius: 100)
        let b = region("b", coord(48.1, 11), radius: 100)
        _ = session.handle(.addRegions([a, b]), now: time(1))
        let c = region("c", coord(48.2, 11), radius: 100)
        let effects = session.handle(.setRegions([a, c]), now: time(2))
        #expect(Self.stores(effects) == [.removeRegions(["b"]), .saveRegions([c])])
    }

    @Test("active tracking takes 1 s to 24 h, and only with tracking on")
    func activeTracking() {
        var session = Self.launched()
        #expect(Self.refusal(session.handle(.startActiveTracking(duration: 60), now: time(1))) == .trackingDisabled)
        _ = session.handle(.start(nil, Self.allowed), now: time(1))
        #expect(Self.refusal(session.handle(.startActiveTracking(duration: 0.5), now: time(2))) == .invalidArgument)
        #expect(Self.refusal(session.handle(.startActiveTracking(duration: .nan), now: time(2))) == .invalidArgument)
        #expect(Self.refusal(session.handle(.startActiveTracking(duration: 86_401), now: time(2))) == .invalidArgument)
        #expect(Self.refusal(session.handle(.startActiveTracking(duration: 600), now: time(2))) == nil)
    }

    @Test("a background refresh with tracking off is refused")
    func backgroundRefresh() {
        var session = Self.launched()
        #expect(Self.refusal(session.handle(.backgroundRefresh, now: time(1))) == .trackingDisabled)
    }

    @Test("server commands are carried out and stored as applied; one that cannot apply says why")
    func serverCommands() {
        var session = Self.launched()
        let commands = [
            DeviceCommand(id: "1", command: .startActiveTracking(minutes: 5)), DeviceCommand(id: "2", command: .reportLocation),
        ]
        let effects = session.handle(.serverCommands(commands), now: time(1))
        #expect(Self.stores(effects).last == .commandsApplied(["1", "2"]))
        #expect(effects.contains { if case .notice(let text) = $0 { text.contains("server command 1") } else { false } })
    }

    @Test("upload settings and the credential are session values: kept in memory, stored on the one write path, restored")
    func uploadAccount() throws {
        var session = Self.launched()
        let settings = UploadSettings(kind: .whereabouts, url: URL(string: "http://127.0.0.1:8080"), device: "phone")
        let tokens = AuthTokens(idToken: "t", expiresAt: nil, refreshToken: nil, userID: "u")
        #expect(Self.stores(session.handle(.configureUploads(settings), now: time(1))) == [.uploadSettings(settings)])
        #expect(Self.stores(session.handle(.setAuthTokens(tokens), now: time(2))) == [.authTokens(tokens)])
        #expect(session.uploads == UploadAccount(settings: settings, tokens: tokens))
        #expect(
            session.uploads.endpoint?.name == WhereaboutsBatchEndpoint(base: URL(string: "http://127.0.0.1:8080")!, device: "phone").name)
        #expect(Self.stores(session.handle(.setAuthTokens(nil), now: time(3))) == [.authTokens(nil)])
        #expect(session.uploads.tokens == nil)
        let restored = Self.launched(SavedSession(uploads: UploadAccount(settings: settings, tokens: tokens)))
        #expect(restored.uploads.settings == settings)
    }

    @Test("commands an upload brings are carried out once: one sent again before its acknowledgement is not carried out twice")
    func commandsOnce() {
        var session = Self.launched()
        _ = session.handle(.start(nil, Self.allowed), now: time(0))
        let report = DeviceCommand(id: "r1", command: .reportLocation)
        let first = session.handle(.uploaded(Self.report(stoppedBy: nil, commands: [report, report])), now: time(1))
        #expect(Self.stores(first) == [.commandsApplied(["r1"])])
        #expect(first.filter { if case .track(.requestOneShot) = $0 { true } else { false } }.count == 1)
        #expect(session.unacknowledgedCommands == ["r1"])
        let again = session.handle(.uploaded(Self.report(stoppedBy: nil, commands: [report])), now: time(2))
        #expect(Self.stores(again).isEmpty, "sent again before the acknowledgement reached the server: not carried out twice")
        _ = session.handle(.uploaded(Self.report(stoppedBy: nil, acknowledged: ["r1"])), now: time(3))
        #expect(session.unacknowledgedCommands.isEmpty)
        let restored = Self.launched(SavedSession(unacknowledgedCommands: ["r1"]))
        #expect(restored.unacknowledgedCommands == ["r1"], "a relaunch remembers what waits for its acknowledgement")
    }

    @Test("a failed upload makes its retry time a deadline; the wake at it asks for a flush once")
    func uploadRetry() {
        var session = Self.launched()
        #expect(session.nextDeadline == nil)
        let retryAt = time(30)
        _ = session.handle(.uploaded(Self.report(stoppedBy: .failed("server answered 503", retryAt: retryAt))), now: time(1))
        #expect(session.nextDeadline == retryAt)
        _ = session.handle(.uploaded(Self.report(stoppedBy: .backingOff(until: retryAt))), now: time(2))
        #expect(session.nextDeadline == retryAt, "a flush turned away by the back-off keeps the retry")
        #expect(!session.handle(.wake, now: time(29)).contains(.retryUploads))
        #expect(session.handle(.wake, now: retryAt).contains(.retryUploads))
        #expect(session.nextDeadline == nil)
        #expect(!session.handle(.wake, now: time(31)).contains(.retryUploads))
    }

    @Test("a flush that emptied the queue, or paused it for a wrong URL, forgets the retry")
    func uploadRetryForgotten() {
        for stop: FlushStop? in [nil, .misconfigured("wrong URL")] {
            var session = Self.launched()
            _ = session.handle(.uploaded(Self.report(stoppedBy: .failed("offline", retryAt: time(30)))), now: time(1))
            _ = session.handle(.uploaded(Self.report(stoppedBy: stop)), now: time(2))
            #expect(session.nextDeadline == nil)
        }
    }

    @Test("with tracking on, the retry and the tracker's timers share one deadline: the earlier")
    func sharedDeadline() {
        var session = Self.launched()
        _ = session.handle(.start(.continuous(), Self.allowed), now: time(0))
        let tracker = session.nextDeadline
        _ = session.handle(.uploaded(Self.report(stoppedBy: .failed("offline", retryAt: time(1)))), now: time(0))
        #expect(session.nextDeadline == time(1))
        _ = session.handle(.wake, now: time(1))
        #expect(session.nextDeadline == tracker)
    }
}
