/// Why the app process started, as the app delegate learns it.
public enum LaunchReason: String, Sendable, Codable, CaseIterable {
    /// The user opened the app.
    case user
    /// The OS relaunched the app in the background for a location event: a region crossing, a
    /// significant change or a visit (iOS `UIApplication.LaunchOptionsKey.location`).
    case locationEvent
    /// The OS started the app for a background task (BGTaskScheduler).
    case backgroundTask
}
