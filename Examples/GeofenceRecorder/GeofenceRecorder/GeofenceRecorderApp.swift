import SwiftUI

@main
struct GeofenceRecorderApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate

    var body: some Scene {
        WindowGroup { RecorderView() }
    }
}
