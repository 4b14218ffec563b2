import Foundation
import Testing
import Whereabouts
import WhereaboutsApple
import WhereaboutsCore
import WhereaboutsTestSupport

@Suite("The automatic set-up: the engine with no native code")
@MainActor
struct AutomaticSetupTests {
    @Test("the Info.plist names the refresh task, or the bundle identifier does; WhereaboutsAutomaticSetup false turns it off")
    func readsTheInfoPlist() {
        let support = URL(fileURLWithPath: "/app/Library/Application Support")
        let named = AutomaticSetup(
            bundleIdentifier: "com.example.app", reading: { [AutomaticSetup.refreshTaskKey: "com.example.sync"][$0] },
            applicationSupport: support)
        #expect(named.enabled && named.refreshTaskIdentifier == "com.example.sync")
        #expect(named.storePath == "/app/Library/Application Support/Whereabouts/whereabouts.sqlite")
        let derived = AutomaticSetup(bundleIdentifier: "com.example.app", reading: { _ in nil }, applicationSupport: support)
        #expect(derived.refreshTaskIdentifier == "com.example.app.whereabouts.refresh")
        let off = AutomaticSetup(
            bundleIdentifier: "com.example.app", reading: { [AutomaticSetup.enabledKey: false][$0] }, applicationSupport: support)
        #expect(!off.enabled)
    }

    @Test("at launch it creates the store, the engine and the bridge, registers the refresh task and launches; never twice")
    func startsOnce() async throws {
        let app = PhoneApp(at: home)
        try app.launch()
        let support = temporaryFolder("support")
        let info: [String: Any] = [AutomaticSetup.refreshTaskKey: "whereabouts.refresh"]
        let scheduler = RecordingScheduler()
        // A service made where none is used would start CoreLocation and CoreMotion for nothing.
        let madeInVain = Latest<Bool>()

        let off = AutomaticSetup(
            bundleIdentifier: "com.example.app", reading: { [AutomaticSetup.enabledKey: false][$0] }, applicationSupport: support)
        #expect(
            off.start(
                reason: .user,
                service: {
                    madeInVain.set(true)
                    return app.service
                }(), scheduler: scheduler, notificationCenter: RecordingNotificationCenter(), log: app.lines.log) == nil)
        #expect(Bridge.installed == nil && scheduler.registered.isEmpty)

        let relayed = Latest<Bridge>()
        Bridge.whenInstalled { relayed.set($0) }
        let setup = AutomaticSetup(bundleIdentifier: "com.example.app", reading: { info[$0] }, applicationSupport: support)
        let started = try #require(
            setup.start(
                reason: .locationEvent, service: app.service, scheduler: scheduler, notificationCenter: RecordingNotificationCenter(),
                log: app.lines.log))
        #expect(Bridge.installed === started.bridge)
        #expect(relayed.value === started.bridge, "a glue waiting for the bridge gets it")
        #expect(FileManager.default.fileExists(atPath: setup.storePath))
        #expect(scheduler.registered == ["whereabouts.refresh"] && scheduler.submissions == ["whereabouts.refresh"])
        #expect(await started.launch.value == .trackingDisabled, "a relaunch with tracking off starts nothing")
        let reply = await started.bridge.call("getLocationData", json: "{}")
        #expect(reply.contains("\"setupProblems\":[]"), "JavaScript is answered: \(reply)")

        #expect(
            setup.start(
                reason: .user,
                service: {
                    madeInVain.set(true)
                    return app.service
                }(), scheduler: scheduler, notificationCenter: RecordingNotificationCenter(), log: app.lines.log) == nil)
        #expect(app.lines.messages(.launch).contains("the app installed its own bridge: the automatic set-up creates nothing"))
        #expect(madeInVain.value == nil, "no service is made when the set-up is off or a bridge is installed")
        await started.engine.shutdown()
    }
}
