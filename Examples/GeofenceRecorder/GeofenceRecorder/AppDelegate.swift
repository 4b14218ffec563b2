import UIKit
import WhereaboutsApple

/// Starts the engine on every launch, including the OS's relaunch for a region crossing after the app
/// was killed, and registers the background refresh before launching finishes.
final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        let recorder = Recorder.shared
        recorder.refresh.register()
        RelaunchHandler(engine: recorder.engine).applicationDidFinishLaunching(launchOptions: launchOptions)
        try? recorder.refresh.schedule()
        Task { _ = try? await recorder.notifier.enable() }
        return true
    }
}
