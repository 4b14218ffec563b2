import Foundation

/// What the app wants of local notifications on region events, as JavaScript's
/// `configureNotifications` sets them: whether they are on, for which kinds of event, and the
/// notification category (with its actions) each one carries, so the app can answer a tap on an
/// action. Stored, so a relaunch in the background for a region event posts with the same settings.
public struct RegionNotificationSettings: Sendable, Hashable, Codable {
    /// One button of the category (`UNNotificationAction`).
    public struct Action: Sendable, Hashable, Codable {
        /// The action's identifier, handed to the app when the user taps it.
        public var identifier: String
        /// The button's title.
        public var title: String
        /// Whether tapping it opens the app (`.foreground`).
        public var opensApp: Bool

        /// Creates an action.
        public init(identifier: String, title: String, opensApp: Bool = false) {
            self.identifier = identifier
            self.title = title
            self.opensApp = opensApp
        }
    }

    /// Whether region events are notified.
    public var enabled: Bool
    /// The kinds of event notified.
    public var kinds: Set<RegionEventKind>
    /// The category identifier every notification carries (`UNNotificationCategory`).
    public var categoryIdentifier: String
    /// The category's actions, in order.
    public var actions: [Action]

    /// The category identifier when the app names none.
    public static let defaultCategory = "whereabouts.region"

    /// Creates settings; every kind and the default category with no actions by default.
    public init(
        enabled: Bool, kinds: Set<RegionEventKind> = Set(RegionEventKind.allCases), categoryIdentifier: String = defaultCategory,
        actions: [Action] = []
    ) {
        self.enabled = enabled
        self.kinds = kinds
        self.categoryIdentifier = categoryIdentifier
        self.actions = actions
    }
}

extension SettingKey where Value == RegionNotificationSettings {
    /// The region notifications JavaScript configured.
    public static var regionNotifications: SettingKey<RegionNotificationSettings> { .init("regionNotifications") }
}
