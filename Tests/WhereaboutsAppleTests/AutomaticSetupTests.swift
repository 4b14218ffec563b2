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

    @Test("at launch it creates the engine and the bridge; a store not openable yet is tried again later; never twice")
    func startsOnce() async throws {
        // The store, the engine and the bridge are created, the refresh task is registered and the engine
        // launched; a store that cannot be opened (before the first unlock) is tried again when protected
        // data becomes available.
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

        // Before the first unlock the store's files cannot be opened; a file where its folder goes plays that.
        let setup = AutomaticSetup(bundleIdentifier: "com.example.app", reading: { info[$0] }, applicationSupport: support)
        let folder = (setup.storePath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: support.path, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder, contents: Data()))
        let kept = WeakBox<CoreLocationService>()
        #expect(
            setup.start(
                reason: .locationEvent,
                service: {
                    let service = app.makeService()
                    kept.value = service
                    return service
                }(), scheduler: scheduler, notificationCenter: RecordingNotificationCenter(), log: app.lines.log) == nil)
        #expect(Bridge.installed == nil && AutomaticSetup.isWaitingForStore)
        #expect(kept.value != nil, "the service lives on, so the event that woke the app is delivered to it")
        #expect(app.lines.messages(.launch).contains { $0.contains("could not be opened") })
        #expect(scheduler.registered == ["whereabouts.refresh"], "registered before launching finishes, as BGTaskScheduler requires")
        #expect(scheduler.run("whereabouts.refresh").completed == [false], "a refresh before the engine exists ends at once")
        #expect(AutomaticSetup.protectedDataBecameAvailable() == nil && AutomaticSetup.isWaitingForStore, "still locked: it waits")

        let relayed = Latest<Bridge>()
        Bridge.whenInstalled { relayed.set($0) }
        try FileManager.default.removeItem(atPath: folder)
        let started = try #require(AutomaticSetup.protectedDataBecameAvailable())
        #expect(!AutomaticSetup.isWaitingForStore)
        #expect(Bridge.installed === started.bridge)
        #expect(relayed.value === started.bridge, "a glue waiting for the bridge gets it")
        #expect(FileManager.default.fileExists(atPath: setup.storePath))
        #expect(
            scheduler.registered == ["whereabouts.refresh"] && scheduler.submissions == ["whereabouts.refresh"],
            "registered once, scheduled once the engine exists")
        #expect(await started.launch.value == .trackingDisabled, "a relaunch with tracking off starts nothing")
        let reply = await started.bridge.call("getLocationData", json: "{}")
        #expect(reply.contains("\"setupProblems\":[]"), "JavaScript is answered: \(reply)")
        let run = scheduler.run("whereabouts.refresh")
        #expect(await soon { run.completed == [true] }, "the refresh task's runs are the engine's now")
        #expect(AutomaticSetup.protectedDataBecameAvailable() == nil, "nothing is waiting any more")

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

/// Holds an object without keeping it alive.
final class WeakBox<Object: AnyObject> {
    weak var value: Object?
}
