import Foundation
import Testing
import Whereabouts
import WhereaboutsApple
import WhereaboutsCore

@Suite("Permissions and the app's Info.plist")
@MainActor
struct PermissionAndSetupTests {
    @Test("permission downgraded to When In Use while tracking: reported once, background shown as refused")
    func downgradedWhileTracking() async throws {
        let app = PhoneApp(at: home, status: CoreLocationConstants.authorizationNotDetermined)
        try app.launch()
        try await app.engine.launch(.user)
        _ = try await app.engine.requestPermission(.foreground)
        #expect(await soon { app.service.authorization().status == .whenInUse })
        _ = try await app.engine.requestPermission(.background)
        #expect(try await soon { try await app.engine.checkPermissions().background?.isGranted == true })
        try await app.engine.start(mode: .continuous())
        await app.drainMain()
        #expect(app.primary.allowsBackgroundLocationUpdates)

        app.os.changeAuthorization(to: CoreLocationConstants.authorizationWhenInUse)
        let engine = try #require(app.engine)
        #expect(await soon { await engine.permissionProblems.map(\.code) == [.backgroundDenied] })
        #expect(try await engine.checkPermissions().background?.isGranted == false)
        #expect(app.primary.dialogs == ["whenInUse", "always"], "each dialog asked once")
        await app.kill()
    }

    @Test("without NSMotionUsageDescription motion is never started, one line says so, and LocationData lists it")
    func motionKeyMissing() async throws {
        let app = PhoneApp(at: home)
        app.setup = AppSetup(
            usageDescriptions: [AppSetup.whenInUseKey, AppSetup.alwaysKey], backgroundModes: ["location", "fetch"],
            permittedTaskIdentifiers: ["whereabouts.refresh"])
        app.mode = .adaptive()
        try app.launch()
        try await app.engine.launch(.user)
        try await app.engine.start(mode: .adaptive())
        await app.drainMain()
        #expect(app.motion?.starts == 0, "iOS ends an app that starts motion without the key")
        #expect(app.lines.all.filter { $0.message.contains(AppSetup.motionKey) }.count == 1)
        #expect(await app.engine.snapshot().setupProblems.map(\.code) == [.motionUsageDescriptionMissing])
        await app.kill()

        let complete = PhoneApp(at: home)
        complete.mode = .adaptive()
        try complete.launch()
        try await complete.engine.launch(.user)
        try await complete.engine.start(mode: .adaptive())
        #expect(await soon { complete.motion?.starts == 1 }, "with the key, the adaptive mode uses motion")
        #expect(await complete.engine.snapshot().setupProblems.isEmpty)
        await complete.kill()
    }

    @Test("without the location background mode, background updates are never allowed")
    func backgroundModeMissing() async throws {
        let app = PhoneApp(at: home)
        app.setup = AppSetup(
            usageDescriptions: [AppSetup.whenInUseKey, AppSetup.alwaysKey, AppSetup.motionKey], backgroundModes: [],
            permittedTaskIdentifiers: [])
        try app.launch()
        try await app.engine.launch(.user)
        try await app.engine.start(mode: .continuous())
        await app.drainMain()
        #expect(app.primary.updating)
        #expect(!app.primary.allowsBackgroundLocationUpdates, "setting it without the mode ends the app")
        #expect(await app.engine.snapshot().setupProblems.map(\.code) == [.locationBackgroundModeMissing])
        await app.kill()
    }

    @Test("without its usage string a permission is not asked for, and the failure names the key")
    func usageStringMissing() async throws {
        let app = PhoneApp(at: home, status: CoreLocationConstants.authorizationNotDetermined)
        app.setup = AppSetup(usageDescriptions: [AppSetup.whenInUseKey], backgroundModes: ["location"], permittedTaskIdentifiers: [])
        try app.launch()
        try await app.engine.launch(.user)
        _ = try await app.engine.requestPermission(.foreground)
        #expect(await soon { app.service.authorization().status == .whenInUse })
        _ = try await app.engine.requestPermission(.background)
        await app.drainMain()
        #expect(app.primary.dialogs == ["whenInUse"], "the Always dialog iOS would not show is not asked for")
        #expect(app.lines.messages(.location).contains { $0.contains(AppSetup.alwaysKey) })
        #expect(await app.engine.snapshot().setupProblems.map(\.code) == [.alwaysUsageDescriptionMissing, .motionUsageDescriptionMissing])
        await app.kill()
    }

    @Test("a refresh task the Info.plist does not permit is neither registered nor scheduled, and LocationData says so")
    func refreshNotPermitted() async throws {
        let app = PhoneApp(at: home)
        app.setup = AppSetup(usageDescriptions: [], backgroundModes: ["fetch"], permittedTaskIdentifiers: ["another.task"])
        app.refreshTask = "whereabouts.refresh"
        try app.launch()
        let scheduler = RecordingScheduler()
        let refresh = BackgroundRefreshTask(
            identifier: "whereabouts.refresh", engine: app.engine, scheduler: scheduler, setup: app.setup, log: app.lines.log)
        #expect(!refresh.register())
        #expect(throws: RefreshNotPermitted.self) { try refresh.schedule() }
        #expect(scheduler.registered.isEmpty && scheduler.submissions.isEmpty, "registering it would end the app")
        #expect(app.lines.messages(.background).count == 1)
        #expect(app.setup.problems(refreshTask: "whereabouts.refresh").last?.code == .refreshTaskNotPermitted)
        #expect(
            await app.engine.snapshot().setupProblems.map(\.code).contains(.refreshTaskNotPermitted),
            "the service checks the identifier it was given, so the app can show the problem")
        await app.kill()
    }

    @Test("the Info.plist is read as iOS reads it: blank usage strings count as missing")
    func readingInfoPlist() {
        let plist: [String: Any] = [
            AppSetup.whenInUseKey: "Shows where you are.", AppSetup.alwaysKey: "  ", AppSetup.motionKey: 42,
            AppSetup.backgroundModesKey: ["location"], AppSetup.permittedTasksKey: ["a"],
        ]
        let setup = AppSetup(reading: { plist[$0] })
        #expect(setup.usageDescriptions == [AppSetup.whenInUseKey])
        #expect(setup.allowsWhenInUseRequest && !setup.allowsAlwaysRequest && !setup.allowsMotion)
        #expect(setup.allowsBackgroundUpdates && !setup.allowsRefresh("a"), "refresh needs the fetch mode too")
    }

    @Test("a location launch option is a relaunch for a location event")
    func launchReason() {
        #expect(RelaunchHandler.reason(launchOptionKeys: ["UIApplicationLaunchOptionsLocationKey"]) == .locationEvent)
        #expect(RelaunchHandler.reason(launchOptionKeys: ["UIApplicationLaunchOptionsRemoteNotificationKey"]) == .user)
        #expect(RelaunchHandler.reason(launchOptionKeys: []) == .user)
    }
}
